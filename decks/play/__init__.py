"""Playtests: games against bots or hot-seat, deck reports and simulation."""
