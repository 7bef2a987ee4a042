"""Errors a user can cause. The CLI turns each into one line and exit code 2."""


class GeolabError(Exception):
    """A mistake in what the user (or a bot) asked for: bad rules, records, arguments, moves."""


class RulesError(GeolabError):
    """A `Rules` object whose settings are impossible or inconsistent."""


class RecordError(GeolabError):
    """A game record that is malformed, illegal, or disagrees with its stated result."""


class IllegalActionError(GeolabError):
    """A policy (bot or human) chose an action the rules do not allow."""


class BotError(IllegalActionError):
    """A bot that failed while deciding (it raised an exception) or broke the rules in a way
    the engine names: the message names the bot, the game and the decision."""
