package db_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

var errTaken, errMissing = errors.New("taken"), errors.New("missing")

// The gorm statement helpers answer the caller's errors for a duplicate, no row and no
// change, wrap the driver's other errors with what, and page in order, on both engines.
func TestGormHelpers(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		conn := d.Conn(context.Background())
		for _, n := range []string{"c", "a", "b"} {
			if err := db.Insert(conn, &widget{ID: ids.New(), Name: n}, errTaken, "widgets: insert"); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Insert(conn, &widget{ID: ids.New(), Name: "a"}, errTaken, "widgets: insert"); !errors.Is(err, errTaken) {
			t.Fatalf("duplicate: %v", err)
		}
		if err := db.Insert(conn, &widget{ID: ids.New(), Name: "a"}, nil, "widgets: insert"); !db.IsDuplicate(err) || !strings.HasPrefix(err.Error(), "widgets: insert: ") {
			t.Fatalf("duplicate without its error: %v", err)
		}
		if ok, err := db.InsertNew(conn, &widget{ID: ids.New(), Name: "a"}, "widgets: insert"); ok || err != nil {
			t.Fatalf("InsertNew of a duplicate = %v, %v", ok, err)
		}
		if ok, err := db.InsertNew(conn, &widget{ID: ids.New(), Name: "d"}, "widgets: insert"); !ok || err != nil {
			t.Fatalf("InsertNew = %v, %v", ok, err)
		}

		name := func(w widget) string { return w.Name }
		if got, err := db.FirstAs(conn.Where("name = ?", "b"), name, errMissing, "widgets: select"); got != "b" || err != nil {
			t.Fatalf("FirstAs = %q, %v", got, err)
		}
		if _, err := db.First[widget](conn.Where("name = ?", "z"), errMissing, "widgets: select"); !errors.Is(err, errMissing) {
			t.Fatalf("First of none = %v", err)
		}
		if w, err := db.First[*widget](conn.Where("name = ?", "z"), nil, "widgets: select"); w != nil || err != nil {
			t.Fatalf("First of none without an error = %v, %v", w, err)
		}
		if _, err := db.Find[widget](conn.Where("nope = ?", 1), "widgets: list"); err == nil || !strings.HasPrefix(err.Error(), "widgets: list: ") {
			t.Fatalf("Find of a bad column = %v", err)
		}
		if got, err := db.FindAs(conn.Order("name DESC"), name, "widgets: list"); err != nil || strings.Join(got, "") != "dcba" {
			t.Fatalf("FindAs = %v, %v", got, err)
		}

		all := conn.Model(&widget{}).Where("name <> ?", "d").Session(&gorm.Session{})
		rows, total, err := db.Page[widget](all, "name", 1, 1, "widgets: count", "widgets: list")
		if err != nil || total != 3 || len(rows) != 1 || rows[0].Name != "b" {
			t.Fatalf("Page = %v, %d, %v", rows, total, err)
		}
		rows, total, err = db.Page[widget](conn.Model(&widget{}).Where("name = ?", "z").Session(&gorm.Session{}), "name", 0, 10, "widgets: count", "widgets: list")
		if err != nil || total != 0 || len(rows) != 0 {
			t.Fatalf("empty Page = %v, %d, %v", rows, total, err)
		}

		if n, err := db.Affected(conn.Model(&widget{}).Where("name IN ?", []string{"a", "b"}).Update("name", "x"), "widgets: rename"); err == nil || n != 0 {
			t.Fatalf("Affected of a unique violation = %d, %v", n, err)
		}
		if err := db.One(conn.Where("name = ?", "z").Delete(&widget{}), errMissing, "widgets: delete"); !errors.Is(err, errMissing) {
			t.Fatalf("One of no change = %v", err)
		}
		if err := db.One(conn.Where("name = ?", "d").Delete(&widget{}), errMissing, "widgets: delete"); err != nil {
			t.Fatalf("One = %v", err)
		}
		if err := db.Done(conn.Where("name = ?", "d").Delete(&widget{}), "widgets: delete"); err != nil {
			t.Fatalf("Done = %v", err)
		}
	}, widgets())
}

func TestMapErrStops(t *testing.T) {
	out, err := db.MapErr([]int{1, 2, 3}, func(i int) (int, error) {
		if i == 2 {
			return 0, errMissing
		}
		return i * 10, nil
	})
	if out != nil || !errors.Is(err, errMissing) {
		t.Fatalf("MapErr = %v, %v", out, err)
	}
	if got := db.Map([]int{}, func(i int) int { return i }); got == nil {
		t.Fatal("Map of no rows is nil, want empty")
	}
}

func TestNullable(t *testing.T) {
	if db.NullString("") != nil || *db.NullString("x") != "x" || db.Deref(nil) != "" || db.Deref(db.NullString("y")) != "y" {
		t.Fatal("NullString/Deref")
	}
	if db.UTCPtr(nil) != nil {
		t.Fatal("UTCPtr(nil)")
	}
}
