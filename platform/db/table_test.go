package db_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

var tickets = testdb.Tables("tickets", `CREATE TABLE tickets (
    id         {{.UUID}} PRIMARY KEY,
    number     {{.BigInt}} NOT NULL DEFAULT 41,
    title      {{.Text}} NOT NULL,
    created_at {{.Time}} NOT NULL
)`)

// ticket's number is the database's when a row leaves it zero (as an order's number
// from its sequence).
type ticket struct {
	ID        string `gorm:"primaryKey"`
	Number    int64  `gorm:"default:(-)"`
	Title     string
	CreatedAt time.Time
}

func (ticket) TableName() string { return "tickets" }

// InsertOne leaves a column the database fills to it when the row leaves it zero and
// reads it back, as gorm's Create does; a row that sets it writes it. Several rows at
// once are refused, and an update leaves the column alone.
func TestTableInsertOneReadsBackWhatTheDatabaseFills(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d, ctx := e.DB, context.Background()
		tbl := db.NewTable[ticket](d)
		byTable, byGorm := ticket{ID: ids.New(), Title: "a"}, ticket{ID: ids.New(), Title: "a"}
		if err := tbl.InsertOne(ctx, &byTable); err != nil {
			t.Fatal(err)
		}
		if err := d.Conn(ctx).Create(&byGorm).Error; err != nil {
			t.Fatal(err)
		}
		if byTable.Number != 41 || byGorm.Number != 41 || byTable.CreatedAt.IsZero() {
			t.Fatalf("read back: table %+v, gorm %+v", byTable, byGorm)
		}
		set := ticket{ID: ids.New(), Number: 7, Title: "b"}
		if err := tbl.InsertOne(ctx, &set); err != nil {
			t.Fatal(err)
		}
		var got ticket
		if err := d.Conn(ctx).Where("id = ?", set.ID).Take(&got).Error; err != nil || got.Number != 7 || got.Title != "b" {
			t.Fatalf("stored %+v, %v", got, err)
		}
		if err := tbl.Insert(ctx, []ticket{{ID: ids.New(), Title: "c"}}); err == nil {
			t.Fatal("several rows of a table with the database's columns were written")
		}
		set.Number, set.Title = 99, "renamed"
		if n, err := tbl.Update(nil, "id = ?").Exec(ctx, &set, set.ID); err != nil || n != 1 {
			t.Fatalf("update = %d, %v", n, err)
		}
		if err := d.Conn(ctx).Where("id = ?", set.ID).Take(&got).Error; err != nil || got.Number != 7 || got.Title != "renamed" {
			t.Fatalf("updated %+v, %v", got, err)
		}
		dup := ticket{ID: set.ID, Title: "dup"}
		if err := tbl.InsertOne(ctx, &dup); !db.IsDuplicate(err) {
			t.Fatalf("duplicate = %v", err)
		}
	}, tickets)
}

var gadgets = testdb.Tables("gadgets", `CREATE TABLE gadgets (
    id          {{.UUID}} PRIMARY KEY,
    name        {{.Text}} NOT NULL UNIQUE,
    price       {{.Money}} NOT NULL,
    note        {{.Text}},
    meta        {{.JSON}},
    count       {{.BigInt}} NOT NULL,
    active      {{.Bool}} NOT NULL,
    size_width  {{.BigInt}} NOT NULL,
    size_height {{.BigInt}} NOT NULL,
    done_at     {{.Time}},
    created_at  {{.Time}} NOT NULL,
    updated_at  {{.Time}} NOT NULL,
    version     {{.BigInt}} NOT NULL
)`)

type gadgetSize struct{ Width, Height int }

// gadget has what the stores' rows have: decimals, nullable text and times, an
// embedded struct, and gorm's auto times (created_at, updated_at by their names).
type gadget struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	Price     decimal.Decimal
	Note      *string
	Meta      *string
	Count     int64
	Active    bool
	Size      gadgetSize `gorm:"embedded;embeddedPrefix:size_"`
	DoneAt    *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
	Version   int
}

func (gadget) TableName() string { return "gadgets" }

func readGadget(t *testing.T, d *db.DB, id string) gadget {
	t.Helper()
	var g gadget
	if err := d.Conn(context.Background()).Where("id = ?", id).Take(&g).Error; err != nil {
		t.Fatalf("read %s: %v", id, err)
	}
	return g
}

// A Table writes what gorm's Create and Updates write: the same row read back, the
// auto times filled when zero (insert) and set to now (update), several rows in one
// statement, duplicates as IsDuplicate, queued writes in a PostgreSQL transaction.
func TestTableWritesWhatGormWrites(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d, ctx := e.DB, context.Background()
		tbl := db.NewTable[gadget](d)
		if tbl.Name() != "gadgets" {
			t.Fatalf("name %q", tbl.Name())
		}
		note, meta := "a note", `{"k": [1, 2]}`
		done := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
		created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		full := gadget{Name: "full", Price: decimal.RequireFromString("1234.5678"), Note: &note, Meta: &meta, Count: 1 << 40,
			Active: true, Size: gadgetSize{Width: 3, Height: 4}, DoneAt: &done, CreatedAt: created, UpdatedAt: created, Version: 7}
		bare := gadget{Name: "bare", Price: decimal.Zero}

		byTable, byGorm := []gadget{full, bare}, []gadget{full, bare}
		for i := range byTable {
			byTable[i].ID, byGorm[i].ID = ids.New(), ids.New()
			byGorm[i].Name += "-gorm"
		}
		before := time.Now().UTC().Add(-time.Second)
		if err := tbl.Insert(ctx, byTable); err != nil {
			t.Fatal(err)
		}
		if err := d.Conn(ctx).Create(&byGorm).Error; err != nil {
			t.Fatal(err)
		}
		for i := range byTable {
			got, want := readGadget(t, d, byTable[i].ID), readGadget(t, d, byGorm[i].ID)
			got.ID, got.Name, want.ID, want.Name = "", "", "", ""
			if i == 1 { // the auto times: now, written back into the row
				if got.CreatedAt.Before(before) || !got.UpdatedAt.Equal(got.CreatedAt) || !byTable[i].CreatedAt.Equal(got.CreatedAt) {
					t.Fatalf("auto times %v %v (row %v)", got.CreatedAt, got.UpdatedAt, byTable[i].CreatedAt)
				}
				got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
			}
			if !reflect.DeepEqual(normalize(got), normalize(want)) {
				t.Fatalf("row %d: table wrote\n%+v\ngorm wrote\n%+v", i, got, want)
			}
		}

		// Update: every column but the key and the omitted ones; updated_at is now.
		row := byTable[0]
		row.Name, row.Note, row.Count, row.Size.Height, row.CreatedAt, row.Version = "renamed", nil, 5, 9, time.Unix(0, 0).UTC(), 8
		update := tbl.Update([]string{"created_at"}, "id = ? AND version = ?")
		n, err := update.Exec(ctx, &row, row.ID, 7)
		if err != nil || n != 1 {
			t.Fatalf("update = %d, %v", n, err)
		}
		got := readGadget(t, d, row.ID)
		if got.Name != "renamed" || got.Note != nil || got.Count != 5 || got.Size != (gadgetSize{3, 9}) || got.Version != 8 ||
			!got.CreatedAt.Equal(created) || !got.UpdatedAt.After(before) {
			t.Fatalf("updated row %+v", got)
		}
		if n, err := update.Exec(ctx, &row, row.ID, 7); err != nil || n != 0 {
			t.Fatalf("stale update = %d, %v", n, err)
		}

		// Upsert: a stored key's row is replaced but for created_at; updated_at is now.
		row.Name, row.Count, row.CreatedAt, row.UpdatedAt = "upserted", 6, time.Unix(0, 0).UTC(), time.Unix(0, 0).UTC()
		fresh := gadget{ID: ids.New(), Name: "fresh", Price: decimal.NewFromInt(2)}
		if err := tbl.Upsert(ctx, []gadget{row, fresh}); err != nil {
			t.Fatal(err)
		}
		got = readGadget(t, d, row.ID)
		if got.Name != "upserted" || got.Count != 6 || !got.CreatedAt.Equal(created) || !got.UpdatedAt.After(before) {
			t.Fatalf("upserted row %+v", got)
		}
		if got := readGadget(t, d, fresh.ID); got.Name != "fresh" || !got.Price.Equal(decimal.NewFromInt(2)) {
			t.Fatalf("upserted new row %+v", got)
		}

		dup := []gadget{{ID: ids.New(), Name: "upserted"}}
		if err := tbl.Insert(ctx, dup); !db.IsDuplicate(err) || !strings.HasPrefix(err.Error(), "gadgets: insert: ") {
			t.Fatalf("duplicate = %v", err)
		}
		if e.Name != "postgres" {
			return
		}
		// Queued (Later) in a transaction: sent with the next statement, its failure
		// the transaction's.
		err = d.InTx(ctx, func(ctx context.Context) error {
			if err := tbl.Insert(db.Later(ctx), []gadget{{ID: ids.New(), Name: "queued"}}); err != nil {
				return err
			}
			return tbl.Insert(db.Later(ctx), dup)
		})
		if !db.IsDuplicate(err) && !strings.Contains(err.Error(), "23505") {
			t.Fatalf("queued duplicate = %v", err)
		}
		var left int64
		d.Conn(ctx).Model(&gadget{}).Where("name = ?", "queued").Count(&left)
		if left != 0 {
			t.Fatal("the failed transaction kept its first insert")
		}
	}, gadgets)
}

// normalize makes times comparable across engines' locations.
func normalize(g gadget) gadget {
	g.CreatedAt, g.UpdatedAt = g.CreatedAt.UTC(), g.UpdatedAt.UTC()
	if g.DoneAt != nil {
		u := g.DoneAt.UTC()
		g.DoneAt = &u
	}
	return g
}

// A model whose columns gorm writes row by row (defaults it writes itself) is refused.
func TestTableRefusesDefaults(t *testing.T) {
	type defaulted struct {
		ID     string `gorm:"primaryKey"`
		Number int64  `gorm:"default:5"`
	}
	d := testdb.Open(t, testdb.Primary(), gadgets).DB
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "number") {
			t.Fatalf("recovered %v", r)
		}
	}()
	db.NewTable[defaulted](d)
	t.Fatal(errors.New("no panic"))
}
