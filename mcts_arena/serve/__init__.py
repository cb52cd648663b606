"""`arena serve`: a read-only live web page over a results root (read side: it uses results/ and
report/, never the runner). catalog.py finds the stores and their state, live.py computes and
caches what the pages show, app.py is the web application (Starlette), server.py checks and
binds and runs it (uvicorn), pages.py holds the pages, static/ their script and style."""
