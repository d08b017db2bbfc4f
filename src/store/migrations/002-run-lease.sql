-- 002: the run lease. The process writing a run holds it: a random token, its pid and host, and
-- a heartbeat it renews every few seconds. A second writer of the same run (two `m3 run
-- --resume` at once) is refused while the lease is live; a lease whose owner died (a dead pid
-- on this host, or no heartbeat for a while) is taken over. NULL token = nobody holds it.
ALTER TABLE runs ADD COLUMN lease_token TEXT;
ALTER TABLE runs ADD COLUMN lease_pid INTEGER;
ALTER TABLE runs ADD COLUMN lease_host TEXT;
ALTER TABLE runs ADD COLUMN lease_heartbeat_at TEXT;
