/**
 * The audit log partitioned by time (issue 37, decision 072): a migration step of the proxy's
 * PostgreSQL schema. Each partition holds whole months, about a tenth of the retention period
 * (a month at least), so the log keeps about ten partitions however long it is kept, and the
 * search plans over a few tables, not 120. Retention drops a partition once its last month is
 * past the retention period: no row is deleted, nothing is left to vacuum. An event is kept
 * for the retention period at least and is gone one partition's length after it at most.
 *
 * An event's id carries its month: (month << 40) | sequence. Ordered by id, the log is ordered
 * by month then by the order written, one total order, so a page's cursor (`before`, an id)
 * loses nothing across partitions, and the newest first is the partitions newest first
 * (`ORDER BY month DESC, id DESC`, which PostgreSQL reads one partition after another and
 * stops once a page is full). Ids written before this step are renumbered the same way.
 */
export const PARTITION_AUDIT = `
  SELECT set_config('search_path', quote_ident(current_schema()) || ', pg_temp', true);

  -- Months since January 1970 (UTC): the partition key.
  CREATE FUNCTION audit_month(at bigint) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT ((date_part('year', d) - 1970) * 12 + date_part('month', d) - 1)::integer
      FROM (SELECT to_timestamp(at / 1000.0) AT TIME ZONE 'UTC' AS d) AS t
  $$;

  -- A month's first millisecond.
  CREATE FUNCTION audit_month_start(month integer) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (extract(epoch FROM make_date(1970 + month / 12, mod(month, 12) + 1, 1)::timestamp)
      * 1000)::bigint
  $$;

  CREATE SEQUENCE audit_event_seq;

  -- An event's id: its month above 40 bits of a sequence (a trillion events, ever).
  CREATE FUNCTION audit_event_id(at bigint) RETURNS bigint
  LANGUAGE sql VOLATILE SET search_path FROM CURRENT AS $$
    SELECT (audit_month(at)::bigint << 40) | nextval('audit_event_seq')
  $$;

  -- Each partition, by its first month and the first after it; written by the owner only.
  CREATE TABLE audit_partitions (
    lower integer PRIMARY KEY,
    upper integer NOT NULL,
    suffix text NOT NULL
  );

  -- Months per partition: a tenth of the retention period, a month at least.
  CREATE FUNCTION audit_partition_months() RETURNS integer
  LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
    SELECT greatest(1, coalesce(
      (SELECT value::integer FROM proxy_settings WHERE name = 'audit_retention_days'), 36500) / 300)
  $$;

  -- The old tables give way; their rows are copied below, renumbered.
  DROP INDEX audit_by_time, audit_by_user, audit_aggregates, audit_by_email,
    audit_registrations_by_time;
  ALTER TABLE audit_events RENAME TO audit_events_before_partitions;
  ALTER TABLE audit_registrations RENAME TO audit_registrations_before_partitions;
  ALTER TABLE audit_events_before_partitions RENAME CONSTRAINT audit_events_pkey
    TO audit_events_before_partitions_pkey;
  ALTER TABLE audit_registrations_before_partitions RENAME CONSTRAINT audit_registrations_pkey
    TO audit_registrations_before_partitions_pkey;

  CREATE TABLE audit_events (
    id bigint NOT NULL,
    month integer NOT NULL,
    at bigint NOT NULL,
    user_id text,
    user_email text,
    action text NOT NULL,
    registrations text[] NOT NULL,
    outcome text NOT NULL,
    request_id text,
    client_address text,
    detail jsonb,
    correlation_id text,
    aggregate_key text,
    attempts integer NOT NULL DEFAULT 1,
    last_at bigint,
    PRIMARY KEY (month, id),
    CHECK (month = audit_month(at)),
    CHECK (id >> 40 = month)
  ) PARTITION BY RANGE (month);
  CREATE INDEX audit_by_time ON audit_events (at);
  CREATE INDEX audit_by_user ON audit_events (user_id, month, id);
  CREATE INDEX audit_by_email ON audit_events (user_email, month, id);
  -- An aggregate's window (15 minutes, aligned to the hour) never spans two months.
  CREATE UNIQUE INDEX audit_aggregates ON audit_events (aggregate_key, month);

  -- "Who checked AB12CDE": each partition's key, read backwards, is its newest first.
  CREATE TABLE audit_registrations (
    registration text NOT NULL,
    month integer NOT NULL,
    event_id bigint NOT NULL,
    at bigint NOT NULL,
    PRIMARY KEY (registration, month, event_id)
  ) PARTITION BY RANGE (month);

  -- The partition that holds a month, made if none does: whole months, aligned to the
  -- partition length, and never overlapping one made under an earlier length. Run as the
  -- owner; the app role reaches it when an event's month has no partition yet.
  CREATE FUNCTION audit_add_partition(month integer) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '5s' AS $$
  DECLARE
    len integer := audit_partition_months();
    lo integer := (month / len) * len;
    hi integer := lo + len;
    suffix text;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('vics audit partitions'));
    IF EXISTS (SELECT FROM audit_partitions p WHERE p.lower <= month AND p.upper > month) THEN
      RETURN;
    END IF;
    lo := greatest(lo, coalesce((SELECT max(p.upper) FROM audit_partitions p
      WHERE p.upper <= month), lo));
    hi := least(hi, coalesce((SELECT min(p.lower) FROM audit_partitions p
      WHERE p.lower > month), hi));
    suffix := to_char(make_date(1970 + lo / 12, mod(lo, 12) + 1, 1), 'YYYY_MM');
    EXECUTE format('CREATE TABLE %I PARTITION OF audit_events FOR VALUES FROM (%s) TO (%s)',
      'audit_events_' || suffix, lo, hi);
    EXECUTE format('CREATE TABLE %I PARTITION OF audit_registrations FOR VALUES FROM (%s) TO (%s)',
      'audit_registrations_' || suffix, lo, hi);
    -- Statement triggers stay on the table they are made on: each partition refuses too.
    EXECUTE format('CREATE TRIGGER never_change BEFORE UPDATE OF id, month, at, user_id,
      user_email, action, registrations, outcome, request_id, client_address, detail,
      correlation_id, aggregate_key OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes()', 'audit_events_' || suffix);
    EXECUTE format('CREATE TRIGGER never_change BEFORE UPDATE OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes()',
      'audit_registrations_' || suffix);
    INSERT INTO audit_partitions VALUES (lo, hi, suffix);
  END $$;
  REVOKE ALL ON FUNCTION audit_add_partition(integer) FROM PUBLIC;

  -- Every month from one time to another has its partition.
  -- Never past two years ahead, nor before 1970: the app role may call it, and a partition
  -- for a month that has not come is kept until that month is past the retention period.
  CREATE FUNCTION audit_add_partitions(from_at bigint, to_at bigint) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  DECLARE
    month integer := audit_month(from_at);
  BEGIN
    IF from_at < 0 OR to_at > (extract(epoch FROM now() + interval '2 years') * 1000)::bigint THEN
      RAISE EXCEPTION 'audit partitions are made from 1970 to two years ahead only'
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    WHILE month <= audit_month(to_at) LOOP
      PERFORM audit_add_partition(month);
      month := (SELECT p.upper FROM audit_partitions p WHERE p.lower <= month AND p.upper > month);
    END LOOP;
  END $$;
  REVOKE ALL ON FUNCTION audit_add_partitions(bigint, bigint) FROM PUBLIC;

  SELECT audit_add_partitions(min(at), max(at)) FROM audit_events_before_partitions
   HAVING count(*) > 0;
  INSERT INTO audit_events (id, month, at, user_id, user_email, action, registrations, outcome,
    request_id, client_address, detail, correlation_id, aggregate_key, attempts, last_at)
  SELECT (audit_month(at)::bigint << 40) | id, audit_month(at), at, user_id, user_email, action,
    registrations, outcome, request_id, client_address, detail, correlation_id, aggregate_key,
    attempts, last_at
  FROM audit_events_before_partitions;
  INSERT INTO audit_registrations (registration, month, event_id, at)
  SELECT registration, audit_month(at), (audit_month(at)::bigint << 40) | event_id, at
  FROM audit_registrations_before_partitions;
  SELECT setval('audit_event_seq', greatest(1, coalesce(max(id), 0)), max(id) IS NOT NULL)
    FROM audit_events_before_partitions;
  DROP TABLE audit_events_before_partitions, audit_registrations_before_partitions;

  CREATE TRIGGER audit_events_never_change BEFORE UPDATE OF id, month, at, user_id, user_email,
    action, registrations, outcome, request_id, client_address, detail, correlation_id,
    aggregate_key OR TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_events_only_count BEFORE UPDATE OF attempts, last_at ON audit_events
    FOR EACH ROW WHEN (OLD.aggregate_key IS NULL OR NEW.attempts < OLD.attempts
      OR NEW.last_at < OLD.last_at)
    EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_events_kept BEFORE DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_kept_until_retention();
  CREATE TRIGGER audit_registrations_never_change BEFORE UPDATE OR TRUNCATE
    ON audit_registrations FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_registrations_kept BEFORE DELETE ON audit_registrations
    FOR EACH ROW EXECUTE FUNCTION audit_kept_until_retention();

  -- Retention drops whole partitions: those whose last month is past the cutoff, and never
  -- one the database's own retention keeps. A partition longer than today's length (made
  -- before the retention was shortened) has its old rows deleted instead, so no event
  -- outlives the period by more than today's length. The count is of the events removed: a
  -- big partition's from the planner's estimate, not a scan of it. Waits 5 s at most for its
  -- locks (a long search holds the table), then fails, to be tried again the next day. Then
  -- makes this month's partition and the next's, if they are missing.
  CREATE OR REPLACE FUNCTION prune_audit(cutoff bigint) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT SET lock_timeout = '5s' AS $$
  DECLARE
    oldest bigint := least(cutoff, audit_retention_cutoff());
    len integer := audit_partition_months();
    part record;
    events bigint;
    deleted integer;
    removed bigint := 0;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('vics audit partitions'));
    FOR part IN SELECT p.lower, p.upper, p.suffix FROM audit_partitions p
      WHERE audit_month_start(p.lower) < oldest ORDER BY p.lower
    LOOP
      IF audit_month_start(part.upper) <= oldest THEN
        SELECT c.reltuples::bigint INTO events FROM pg_class c
         WHERE c.oid = format('%I', 'audit_events_' || part.suffix)::regclass;
        IF events < 1000000 THEN
          EXECUTE format('SELECT count(*) FROM %I', 'audit_events_' || part.suffix) INTO events;
        END IF;
        removed := removed + events;
        EXECUTE format('DROP TABLE %I, %I', 'audit_events_' || part.suffix,
          'audit_registrations_' || part.suffix);
        DELETE FROM audit_partitions p WHERE p.lower = part.lower;
      ELSIF part.upper - part.lower > len THEN
        EXECUTE format('DELETE FROM %I WHERE at < $1', 'audit_registrations_' || part.suffix)
          USING oldest;
        EXECUTE format('DELETE FROM %I WHERE at < $1', 'audit_events_' || part.suffix)
          USING oldest;
        GET DIAGNOSTICS deleted = ROW_COUNT;
        removed := removed + deleted;
      END IF;
    END LOOP;
    PERFORM audit_add_partitions((extract(epoch FROM now()) * 1000)::bigint,
      (extract(epoch FROM now() + interval '1 month') * 1000)::bigint);
    RETURN least(removed, 2147483647);
  END $$;
`;
