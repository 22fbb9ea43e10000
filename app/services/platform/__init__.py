"""The open platform: what community tools and bot programs build on — the NDJSON export of
finished matches' records, personal API tokens and bot accounts (docs/BOT_API.md, docs/API.md
§ Export). It sits above the lobby and match services and uses them as a browser does; it adds
no second way to play.
"""
