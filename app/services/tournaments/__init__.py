"""Tournaments: pairing and standings (pure), and the use cases that store and run them."""
