"""Adapters to other libraries' environment interfaces (each needs its optional extra)."""
