"""Adapters that put every registered game in other libraries' hands: OpenSpiel
(`geolab.interop.openspiel`, extra ``geolab[openspiel]``) and PettingZoo
(`geolab.interop.pettingzoo`, extra ``geolab[pettingzoo]``). Each is one generic adapter over
`geolab.stepwise.State`; nothing here is written for one game."""
