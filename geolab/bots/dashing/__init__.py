"""Dashing States bots: a recognition and speed model per team."""
