"""From a global program with explicit collectives to the program of one device."""
