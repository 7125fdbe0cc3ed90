"""Telling a person of a correspondence game that it is their turn (Web Push): whom to tell and
when, and which push endpoints may be sent to."""
