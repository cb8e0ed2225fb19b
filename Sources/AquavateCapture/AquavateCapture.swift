public enum AquavateCaptureModule {}
