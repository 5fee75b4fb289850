"""What propagation did, for a person: recordings, sharding origins and propagation edges."""
