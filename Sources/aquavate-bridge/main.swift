print("aquavate-bridge")
