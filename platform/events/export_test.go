package events

// OutboxRow is the outbox row as stored, for the tests that read the table.
type OutboxRow = outboxRow
