"""Agents that play heist-envs games from observations alone."""

from agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
