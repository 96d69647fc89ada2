"""The Heat database: MariaDB and SQLite, dumps, generations, restores."""
