public enum BridgeModule {}
