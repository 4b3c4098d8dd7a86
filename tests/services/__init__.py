"""Real services the tests start on 127.0.0.1, each stopped by its own PID."""
