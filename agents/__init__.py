"""Agents that play heist-envs games from observations alone."""

from .base import Agent, InfoSet, RandomAgent

__all__ = ["Agent", "InfoSet", "RandomAgent"]
