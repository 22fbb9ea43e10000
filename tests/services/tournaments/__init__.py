"""Tests of tournaments: pairing, standings and the service."""
