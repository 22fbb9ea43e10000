"""SQLAlchemy models and the session factory (migrations live in migrations/)."""
