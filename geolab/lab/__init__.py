"""The lab: arena, statistics, sweeps and result files."""

#: Most games one table may hold (about 1 GB of columns at 32 seats); the command line checks
#: ``--games`` against it before importing the lab.
MAX_GAMES = 20_000_000
