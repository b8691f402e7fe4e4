"""Django's PostgreSQL backend, with a connection pool that never hands out a connection broken by a restart
(``base.DatabaseWrapper``). ``DATABASE_POOL_MAX_SIZE`` selects it (``palace_api.env.read_database``)."""
