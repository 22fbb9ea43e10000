"""SQLAlchemy models and the session factory (migrations live in migrations/)."""

# The tables of accounts, history, ratings, shuffle commitments and push subscriptions join
# ``models.Base.metadata`` (Alembic's target) whenever anything of app.db is imported.
from app.db import analyses as _analyses  # noqa: E402,F401
from app.db import community as _community  # noqa: E402,F401
from app.db import platform as _platform  # noqa: E402,F401
from app.db import tournaments as _tournaments  # noqa: E402,F401
