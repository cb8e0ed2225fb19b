// The tests' seeded generator is the simulator fault injector's: one SplitMix64 in the project.
@_exported import struct BottleSimulator.SeededGenerator
