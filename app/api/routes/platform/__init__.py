"""The open platform's routes (docs/BOT_API.md): personal API tokens (:mod:`.tokens`), bot
accounts, their event stream and challenges (:mod:`.bots`), and the data export
(:mod:`.export`).
"""
