"""Categorization: the user's rules first, in position order, then the merchant dictionary, then the
direction's default. Every feed row, statement row and bank-text draft is categorized here."""
