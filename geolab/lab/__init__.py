"""The lab: arena, statistics, sweeps and result files."""
