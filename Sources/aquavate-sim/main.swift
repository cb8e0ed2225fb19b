import BottleSimulator
print("aquavate-sim: not built yet (issue 3)")
