// Placeholder; the fuzz entry point is written with the module it fuzzes.
print("build with Fuzz/run.sh")
