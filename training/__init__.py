"""Training pipeline for the built-in static code-search embedder (see MODEL_CARD.md)."""
