"""Browser tests: Playwright for Python driving Debian's Chromium against a real server."""
