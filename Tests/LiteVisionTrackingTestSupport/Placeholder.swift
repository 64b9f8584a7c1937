// Synthetic tracking sequences and metrics for tests
