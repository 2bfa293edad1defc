"""The browser app: a local web server (FastAPI), its database and the game sessions it runs.

Nothing here is imported by the rules engine; ``create_app`` in :mod:`zamek.server.app` builds the app.
"""
