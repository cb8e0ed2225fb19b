public enum HistoryModule {}
