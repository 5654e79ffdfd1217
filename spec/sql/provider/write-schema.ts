/**
 * A small schema of the kinds real databases have and the conformance fixture lacks: enum, array,
 * range, jsonb, inet, domain and varchar columns, an exclusion constraint, partitioned tables
 * (keyed on the parent, and keyed only on the partitions), a view with INSTEAD OF triggers, an
 * automatically updatable view, tables with DO ALSO and DO INSTEAD rules, orders whose lines are
 * keyed by the order's key, and a role without INSERT on one table. Loaded into a schema of its own, on PGlite and on a PostgreSQL server.
 * (To fold into the shared spec schema of issue 23 once that lands.)
 */

/** The DDL of the schema `schema` (which must not exist yet); `role` is the role without INSERT on gadgets. */
export function writeSchemaSql(schema: string, role: string): string {
  const s = `"${schema}"`;
  return `
create schema ${s};
set search_path to ${s};
create type mood as enum ('sad', 'ok', 'happy');
create domain positive_int as integer check (value > 0);

create table gadgets (
  id integer primary key,
  name varchar(5),
  mood mood,
  sizes integer[],
  settings jsonb,
  address inet,
  during int4range,
  amount positive_int,
  rank smallint check (rank < 100),
  code text unique,
  made timestamp
);
insert into gadgets (id, name, mood, code) values (1, 'one', 'ok', 'A');

create table bookings (
  id integer primary key,
  during int4range not null,
  exclude using gist (during with &&)
);
insert into bookings values (1, '[1,10)');

-- Keyed only on its partitions: ON CONFLICT (id, region) has nothing to match on the parent.
create table readings (id integer not null, region text not null, value numeric(10, 2)) partition by list (region);
create table readings_eu partition of readings for values in ('eu');
create table readings_us partition of readings for values in ('us');
alter table readings_eu add primary key (id, region);
alter table readings_us add primary key (id, region);
insert into readings values (1, 'eu', 1.5);

-- Keyed on the parent.
create table events (id integer not null, day date not null, name text, primary key (id, day)) partition by range (day);
create table events_2024 partition of events for values from ('2024-01-01') to ('2025-01-01');

create table people (id integer primary key, first_name text not null, last_name text not null);
insert into people values (1, 'Ada', 'Lovelace'), (100, 'Alan', 'Turing');

-- A view with INSTEAD OF triggers.
create view person_names as select id, first_name || ' ' || last_name as full_name from people;
create function person_names_insert() returns trigger language plpgsql as $$
begin
  insert into ${s}.people (id, first_name, last_name) values (new.id, split_part(new.full_name, ' ', 1), split_part(new.full_name, ' ', 2));
  return new;
end $$;
create trigger person_names_insert instead of insert on person_names for each row execute function person_names_insert();

-- An automatically updatable view.
create view adults as select id, first_name, last_name from people where id >= 100;

-- A DO ALSO rule: INSERT ... RETURNING works, ON CONFLICT does not.
create table notes (id integer primary key, body text);
create table notes_log (id integer, body text);
create rule notes_log as on insert to notes do also insert into notes_log values (new.id, new.body);

-- A DO INSTEAD rule without RETURNING (rows routed to an inheriting table): read back by key.
create table archive (id integer primary key, body text);
create table archive_recent (primary key (id)) inherits (archive);
create rule archive_route as on insert to archive do instead insert into archive_recent values (new.id, new.body);

-- The same with a key the database makes: no create can read the row back.
create table tickets (id integer generated always as identity primary key, body text);
create table tickets_queue (body text);
create rule tickets_queue as on insert to tickets do instead insert into tickets_queue values (new.body);

-- Header and items: the order's key is part of the line's.
create table orders (id integer primary key, placed date not null default current_date);
create table order_lines (
  order_id integer not null references orders (id) on delete cascade,
  line_no smallint not null,
  quantity integer not null,
  primary key (order_id, line_no)
);
insert into orders (id) values (10248);

create role "${role}" login;
grant usage on schema ${s} to "${role}";
grant select, update, delete on all tables in schema ${s} to "${role}";
grant insert on people, notes to "${role}";
reset search_path;
`;
}

/** What introspection needs besides the catalog: the keys of the views and of the table keyed only on its partitions. */
export const WRITE_SCHEMA_KEYS = { person_names: ['id'], adults: ['id'], readings: ['id', 'region'] } as const;
