"""Ready models: run them, or read them as examples."""
