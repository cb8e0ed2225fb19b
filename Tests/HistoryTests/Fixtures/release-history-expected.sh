#!/usr/bin/env bash
# Prints what a history holds, a line per row, in the form release-history.expected keeps: read with
# sqlite3 straight from the file that make-release-history.sh wrote, so that the tests compare what
# the current code reads against what the released bridge wrote, not against the current code.
set -euo pipefail
db=$1
s() { sqlite3 -separator '|' "$db" "$1"; }
s "SELECT 'drink', bottle, record_id, timestamp, amount_ml, bottle_level_ml, type, deleted, manual, ifnull(origin, '-')
   FROM drink ORDER BY bottle, record_id, timestamp"
s "SELECT 'bottle', id, ifnull(serial, '-'), ifnull(address, '-'), ifnull(goal_ml, '-') FROM bottle ORDER BY id"
s "SELECT 'setting', key, value FROM setting ORDER BY key"
s "SELECT 'command', bottle, command, ifnull(argument, '-'), status FROM bottle_command ORDER BY id"
s "SELECT 'delivered', id, kind FROM delivered_notification ORDER BY seq"
s "SELECT 'person', kind, name FROM person_event ORDER BY seq"
s "SELECT 'quarantined', bottle, record_id, timestamp, raw FROM quarantined_record ORDER BY id"
s "SELECT 'household-delivered', bottle, id, origin FROM household_delivered ORDER BY bottle, id, origin"
s "SELECT 'motion', count(*) FROM motion_event"
# The engines' saved documents, one a line (the reminders' and the household's state).
s "SELECT 'engine', name, json FROM engine_state ORDER BY name"
