"""Fixtures and helpers shared by the service tests (real SQLite, Postgres and Redis)."""
