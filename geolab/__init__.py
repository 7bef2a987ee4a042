"""geolab: a strategy lab and AI opponent for the GeoPlunge card games."""

__version__ = "0.1.0"
