// `GET /api/openapi.yaml`: the API as OpenAPI 3.1. Kept beside the handlers and held to them by
// Tests/WebTests/OpenAPIAgreementTests.swift: every path and method here is served, every served
// one is here, and the required fields of each schema are in the real answers.

import AquavateProtocol
import History
import Reminders

enum OpenAPIDocument {
    /// Every GET answers HEAD: the same status and headers, without the body.
    private static let head = #"{summary: "the GET answer's status and headers (Content-Length and Content-Encoding included), without the body", "#
        + #"responses: {"200": {description: "as GET, without the body"}, default: {description: "as GET, without the body"}}}"#

    static let yaml = """
        openapi: 3.1.0
        info:
          title: aquavate-bridge
          version: "1"
          description: >-
            The history, status and bottle commands of an Aquavate bridge (docs/design.md 3.4-3.6).
            On an address other than loopback every request carries the web token as
            `Authorization: Bearer TOKEN`. A POST from a browser must come from the bridge's own page
            (Origin / Sec-Fetch-Site). Bodies are limited to 16 KiB. Times are ISO 8601 UTC; dates are
            local days of the bridge's time zone. Every value is the bottle's effective one: its own
            setting where it has one, else the global. Every GET answers HEAD (the same status and
            headers, no body). Answers are gzipped (`Content-Encoding: gzip`, `Vary: Accept-Encoding`)
            when the request's `Accept-Encoding` allows gzip. Every refusal is a 4xx with a JSON
            `error`.
        components:
          securitySchemes:
            token:
              type: http
              scheme: bearer
          responses:
            BadRequest:
              description: the request is malformed (a parameter out of range, a body that is not the command)
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            Unauthorized:
              description: the web token is required and was not given or is wrong
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            CrossSite:
              description: a cross-site request from a browser
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            TooLarge:
              description: the body is over 16 KiB
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            NotJSON:
              description: the body is not application/json
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            NotFound:
              description: no bottle of that serial or address is known
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
          parameters:
            Bottle:
              name: bottle
              in: query
              description: a bottle's serial or address (any case); an unknown one is a 404
              schema: {type: string, pattern: "^[A-Za-z0-9:_-]{1,64}$"}
          schemas:
            Error:
              type: object
              required: [error]
              properties:
                error: {type: string, description: one line saying what was wrong and what is valid}
            Status:
              type: object
              required: [event, time, today_ml, goal_ml, daily_goal_ml, urgency, deficit_ml, reminders_today, reminders_today_text, daily_limit, pending, pending_commands, quarantined, stuck]
              properties:
                event: {const: status}
                time: {type: string, format: date-time}
                today_ml: {type: integer}
                goal_ml: {type: integer, description: "the daily goal's earlier key, the same value as daily_goal_ml"}
                daily_goal_ml: {type: integer, minimum: \(DailyGoal.rangeML.lowerBound), maximum: \(DailyGoal.rangeML.upperBound), description: "the person's daily goal in force, what today is measured against: the bottle's own daily_goal_ml setting, else the global one, else the goal the bottle confirmed, else 2500"}
                bottle_goal_ml: {type: integer, minimum: \(BottleGoal.rangeML.lowerBound), maximum: \(BottleGoal.rangeML.upperBound), description: "the goal the bottle holds and shows on its display, as of its last connection; absent when it has not reported one. It may differ from daily_goal_ml"}
                pending_goal_ml: {type: integer, description: "a bottle goal set (page, API, Home Assistant, CLI) that waits for the bottle's next connection; absent when none waits. Once the bottle confirms it, it is bottle_goal_ml, and daily_goal_ml too unless a daily_goal_ml setting gives the daily goal"}
                urgency: {enum: [on_track, attention, overdue]}
                deficit_ml: {type: integer, description: how far behind the pace line, 0 when on or ahead of it}
                reminders_today: {type: integer}
                reminders_today_text: {type: string}
                daily_limit: {type: boolean}
                pending: {type: integer, description: reminders pending}
                pending_commands: {type: array, items: {$ref: "#/components/schemas/Command"}, description: bottle commands waiting for its next connection}
                quarantined: {type: integer}
                stuck: {type: boolean}
                bottle: {type: string}
                bottle_name: {type: string}
                owner: {type: string}
                last_sync: {type: string, format: date-time}
                battery: {type: integer}
                bottle_level_ml: {type: integer}
                unsynced: {type: integer}
            Day:
              type: object
              required: [event, date, total_ml, drinks, daily_goal_ml, goal_ml]
              properties:
                event: {const: day}
                date: {type: string, format: date}
                total_ml: {type: integer}
                drinks: {type: integer}
                daily_goal_ml: {type: integer, description: "the person's daily goal the day was measured against"}
                goal_ml: {type: integer, description: "daily_goal_ml's earlier key, the same value", deprecated: true}
                bottle: {type: string, description: present where the history holds several bottles}
            Drink:
              type: object
              required: [event, bottle, record_id, time, amount_ml, bottle_level_ml, type, deleted, manual, new]
              properties:
                event: {const: drink}
                bottle: {type: string}
                record_id: {type: integer}
                time: {type: string, format: date-time}
                amount_ml: {type: integer}
                bottle_level_ml: {type: integer}
                type: {enum: [gulp, pour]}
                deleted: {type: boolean}
                manual: {type: boolean, description: "added by a person, not measured by the bottle (record_id from 2147483648 up)"}
                new: {type: boolean}
            DrinkRequest:
              type: object
              required: [amount_ml]
              properties:
                amount_ml: {type: integer, minimum: \(ManualDrinkLimits.volumeML.lowerBound), maximum: \(ManualDrinkLimits.volumeML.upperBound)}
                time: {type: string, format: date-time, description: when it was drunk (not in the future); default now}
                bottle: {type: string, description: serial or address; optional with one bottle}
            CommandRequest:
              type: object
              required: [command]
              properties:
                command: {enum: [goal, daily_goal, delete, tare, shake-to-empty]}
                bottle_goal_ml: {type: integer, minimum: \(BottleGoal.rangeML.lowerBound), maximum: \(BottleGoal.rangeML.upperBound), multipleOf: \(BottleGoal.stepML), description: "for goal: what the bottle shows on its display"}
                goal_ml: {type: integer, minimum: \(BottleGoal.rangeML.lowerBound), maximum: \(BottleGoal.rangeML.upperBound), multipleOf: \(BottleGoal.stepML), description: "for goal: bottle_goal_ml's earlier key", deprecated: true}
                daily_goal_ml: {type: integer, minimum: \(DailyGoal.rangeML.lowerBound), maximum: \(DailyGoal.rangeML.upperBound), description: "for daily_goal: the person's daily goal (the daily_goal_ml setting of the bottle); the bottle is asked to show it clamped into \(BottleGoal.rangeText)"}
                record_id: {type: integer, description: for delete}
                "on": {type: boolean, description: for shake-to-empty}
                bottle: {type: string, description: serial or address; optional with one bottle}
            DailyGoal:
              type: object
              required: [event, bottle, daily_goal_ml, bottle_goal_ml, command_id]
              properties:
                event: {const: daily_goal}
                bottle: {type: string}
                daily_goal_ml: {type: integer, description: the daily goal now in force}
                bottle_goal_ml: {type: integer, description: "what the bottle is to show: the daily goal clamped into \(BottleGoal.rangeText)"}
                command_id: {type: [integer, "null"], description: the goal command queued for the bottle; null when it shows that goal already}
            Command:
              type: object
              required: [event, id, bottle, command, status, message, time]
              properties:
                event: {const: command}
                id: {type: integer}
                bottle: {type: string}
                command: {enum: [goal, delete, tare, shake-to-empty]}
                status: {enum: [pending, applied, failed]}
                message: {type: [string, "null"]}
                time: {type: string, format: date-time}
                bottle_goal_ml: {type: integer, description: "for goal: the goal the bottle is to show"}
                goal_ml: {type: integer, description: "for goal: bottle_goal_ml's earlier key", deprecated: true}
                record_id: {type: integer, description: for delete}
                "on": {type: boolean, description: for shake-to-empty}
        security:
          - token: []
          - {}
        paths:
          /api/v1/status:
            get:
              summary: the object of `status --json` for one bottle
              parameters:
                - {$ref: "#/components/parameters/Bottle"}
              responses:
                "200":
                  description: the status of that bottle; without `bottle`, of the only or the most recently seen one
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Status"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            head: \(head)
          /api/v1/bottles:
            get:
              summary: the status object of every bottle (the per-bottle objects of `status --json`)
              responses:
                "200":
                  description: one status per bottle, most recently seen first; empty before any bottle
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Status"}}
                "401": {$ref: "#/components/responses/Unauthorized"}
            head: \(head)
          /api/v1/days:
            get:
              summary: the day totals of the last N local days (days with drinks)
              parameters:
                - {name: days, in: query, schema: {type: integer, minimum: 1, maximum: 3660, default: 7}}
                - {$ref: "#/components/parameters/Bottle"}
              responses:
                "200":
                  description: day events, oldest first
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Day"}}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            head: \(head)
          /api/v1/drinks:
            get:
              summary: the drinks of the last N local days, deleted ones included, a page at a time
              description: >-
                Oldest first. Without `limit`, every drink of the span (before `before`, when given).
                With `limit`, the newest `limit` of them, and when older ones remain a `Link` header
                names the next page (`rel="next"`): the same query with `before` set to the oldest
                second of this page. A page never splits a second (two bottles can drink in the same
                one), so following the links lists every drink exactly once; only a second that holds
                more than `limit` drinks is answered whole, past `limit`.
              parameters:
                - {name: days, in: query, schema: {type: integer, minimum: 1, maximum: 3660, default: 1}, description: "the span: local days ending today"}
                - {$ref: "#/components/parameters/Bottle"}
                - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 10000}, description: "at most this many drinks, the newest"}
                - name: before
                  in: query
                  description: >-
                    a time: only drinks strictly earlier, as Unix seconds (`1795132800`) or ISO 8601
                    with a zone (`2026-11-20T00:00:00Z`); the `Link` of a page gives the next one's
                  schema:
                    oneOf:
                      - {type: integer, minimum: 1, maximum: 4294967295}
                      - {type: string, format: date-time}
              responses:
                "200":
                  description: drink events, oldest first
                  headers:
                    Link:
                      description: '`</api/v1/drinks?days=N&limit=L&before=T>; rel="next"` when older drinks remain (RFC 8288)'
                      schema: {type: string}
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: "#/components/schemas/Drink"}}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            head: \(head)
            post:
              summary: add a drink the bottle did not measure (as `aquavate-bridge log drink ML`)
              description: >-
                Stored as a manual drink: counted in the day, the reminders and Home Assistant, never
                sent to the bottle; deleted like any drink (`delete` of /api/v1/commands), with no
                command for the bottle.
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/DrinkRequest"}
              responses:
                "201":
                  description: stored; its drink event
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Drink"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "403": {$ref: "#/components/responses/CrossSite"}
                "413": {$ref: "#/components/responses/TooLarge"}
                "415": {$ref: "#/components/responses/NotJSON"}
          /api/v1/commands:
            post:
              summary: queue a bottle command (as `aquavate-bridge bottle goal|delete|tare|shake-to-empty`), or set the daily goal (as `config set bottle.ID.daily_goal_ml`)
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/CommandRequest"}
              responses:
                "202":
                  description: >-
                    queued; applied at the bottle's next connection (a delete counts at once); the
                    delete of a drink added by hand queues nothing and answers the deleted drink
                  content:
                    application/json:
                      schema:
                        oneOf:
                          - {$ref: "#/components/schemas/Command"}
                          - {$ref: "#/components/schemas/Drink"}
                          - {$ref: "#/components/schemas/DailyGoal"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "403": {$ref: "#/components/responses/CrossSite"}
                "413": {$ref: "#/components/responses/TooLarge"}
                "415": {$ref: "#/components/responses/NotJSON"}
                "422":
                  description: refused by the checks (a bottle goal outside \(BottleGoal.rangeText), a daily goal outside \(DailyGoal.rangeText), no such drink, no such bottle)
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Error"}
          /metrics:
            get:
              summary: Prometheus text exposition
              responses:
                "200":
                  description: 'in base units, each with a bottle label: aquavate_today_liters, aquavate_daily_goal_liters (aquavate_goal_liters, its earlier name), aquavate_bottle_goal_liters, aquavate_deficit_liters, aquavate_urgency{state}, aquavate_drinks_total, aquavate_battery_ratio, aquavate_bottle_level_liters, aquavate_last_sync_timestamp_seconds, aquavate_syncs_total{outcome}, aquavate_pending_commands, aquavate_quarantined_records, aquavate_stuck; and aquavate_household_dropped_messages_total{reason}'
                  content:
                    text/plain: {schema: {type: string}}
                "401": {$ref: "#/components/responses/Unauthorized"}
            head: \(head)
          /api/openapi.yaml:
            get:
              summary: this document
              responses:
                "200":
                  description: OpenAPI 3.1
                  content:
                    application/yaml: {schema: {type: string}}
            head: \(head)

        """
}
