"""VietQR: the EMVCo payload NAPAS 247 transfers read (payload.py), the banks by BIN (banks.py), and the
drawing (drawing.py). The payload and bank modules are pure: no ORM, no clock."""
