package db

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// Table writes the rows of one gorm model with plain SQL: the columns are read from
// the model once (gorm's schema of it), and each insert or update builds only its
// arguments, where gorm's Create and Updates build the statement again on every call
// (a tenth of the server's CPU in a checkout complete, docs/performance.md). It
// writes what gorm's Create(&rows) and Model(..).Select("*").Omit(..).Updates(&row)
// would (Insert, Upsert, Update): every column; a zero autoCreateTime / autoUpdateTime time on insert is now
// (written back into the row), and an update sets autoUpdateTime columns to now. A
// model with default values or serializers is refused (NewTable panics: gorm omits
// such columns row by row), but for columns the database fills (a default written as
// SQL, e.g. gorm:"default:(-)" on a sequence's column): InsertOne leaves such a column
// to the database when the row's value is zero and reads it back (RETURNING), as
// gorm's Create does. Statements run through DB.Exec: in ctx's transaction,
// queued with Later(ctx), checked with Expect(ctx, ...); a unique violation is
// gorm.ErrDuplicatedKey (IsDuplicate), as gorm translates it.
type Table[T any] struct {
	d       *DB
	name    string
	fields  []*schema.Field // the columns, in the model's order
	columns string          // their names, comma-separated
	// generated are the columns the database fills when a row leaves them zero (not
	// in fields); with them, returning is InsertOne's statement that reads them back
	// and full the one that writes them.
	generated       []*schema.Field
	returning, full string
	// The insert statements by row count and upsert, bound for the dialect.
	inserts sync.Map
}

// NewTable reads model T's columns (a programming error in the model panics).
func NewTable[T any](d *DB) *Table[T] {
	var zero T
	s, err := schema.Parse(&zero, &sync.Map{}, d.g.NamingStrategy)
	if err != nil {
		panic(fmt.Sprintf("db: table of %T: %v", zero, err))
	}
	t := &Table[T]{d: d, name: s.Table}
	names := make([]string, 0, len(s.Fields))
	for _, f := range s.Fields {
		if f.DBName == "" || !f.Creatable {
			continue
		}
		if f.HasDefaultValue && f.DefaultValueInterface == nil && !f.PrimaryKey && f.Serializer == nil && !f.AutoIncrement &&
			f.AutoCreateTime == 0 && f.AutoUpdateTime == 0 {
			t.generated = append(t.generated, f)
			continue
		}
		if f.HasDefaultValue || f.Serializer != nil || f.AutoIncrement {
			panic(fmt.Sprintf("db: table of %T: column %s has a default value or serializer (use gorm)", zero, f.DBName))
		}
		if (f.AutoCreateTime > 0 || f.AutoUpdateTime > 0) && f.FieldType != reflect.TypeFor[time.Time]() {
			panic(fmt.Sprintf("db: table of %T: auto time column %s is not a time.Time", zero, f.DBName))
		}
		t.fields = append(t.fields, f)
		names = append(names, f.DBName)
	}
	t.columns = strings.Join(names, ", ")
	if len(t.generated) > 0 {
		gen := make([]string, len(t.generated))
		for i, f := range t.generated {
			gen[i] = f.DBName
		}
		t.returning = d.Rebind("INSERT INTO " + t.name + " (" + t.columns + ") VALUES (" + Params(len(t.fields)) + ") RETURNING " + strings.Join(gen, ", "))
		t.full = d.Rebind("INSERT INTO " + t.name + " (" + t.columns + ", " + strings.Join(gen, ", ") + ") VALUES (" + Params(len(t.fields)+len(gen)) + ")")
	}
	return t
}

// Name is the table's name.
func (t *Table[T]) Name() string { return t.name }

// Insert writes rows in one statement (a table with columns the database fills takes
// InsertOne).
func (t *Table[T]) Insert(ctx context.Context, rows []T) error {
	return t.insert(ctx, rows, false)
}

// InsertOne writes row. The columns the database fills are written when row sets
// them; when it leaves them all zero they are the database's, read back into row.
func (t *Table[T]) InsertOne(ctx context.Context, row *T) error {
	if len(t.generated) == 0 {
		rows := []T{*row}
		err := t.insert(ctx, rows, false)
		*row = rows[0]
		return err
	}
	now := t.d.g.NowFunc()
	rv := reflect.ValueOf(row).Elem()
	args := make([]any, 0, len(t.fields)+len(t.generated))
	for _, f := range t.fields {
		v, err := t.value(ctx, f, rv, now, false)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	set := 0
	for _, f := range t.generated {
		if _, zero := f.ValueOf(ctx, rv); !zero {
			set++
		}
	}
	switch set {
	case len(t.generated):
		for _, f := range t.generated {
			v, _ := f.ValueOf(ctx, rv)
			args = append(args, v)
		}
		_, err := t.d.Exec(ctx, t.full, args...)
		return t.failed("insert", err)
	case 0:
		dest := make([]any, len(t.generated))
		for i, f := range t.generated {
			dest[i] = rv.FieldByIndex(f.StructField.Index).Addr().Interface()
		}
		// A write that returns rows: ExecQuery, which takes the writes' turn outside a
		// transaction (QueryRow would take a read's).
		n := 0
		err := t.d.ExecQuery(ctx, t.returning, args, dest, func() error { n++; return nil })
		if err == nil && n != 1 {
			err = fmt.Errorf("returned %d rows", n)
		}
		return t.failed("insert", err)
	default:
		return fmt.Errorf("%s: insert: the database's columns must be all set or all left zero", t.name)
	}
}

// Upsert writes rows in one statement, a row whose primary key is stored replacing
// that row's columns (but the autoCreateTime ones; autoUpdateTime ones are now), as
// gorm's Create with clause.OnConflict{UpdateAll: true} on the key.
func (t *Table[T]) Upsert(ctx context.Context, rows []T) error {
	return t.insert(ctx, rows, true)
}

func (t *Table[T]) insert(ctx context.Context, rows []T, upsert bool) error {
	if len(rows) == 0 {
		return nil
	}
	if len(t.generated) > 0 {
		return fmt.Errorf("%s: insert: a table with columns the database fills writes its rows one by one (InsertOne)", t.name)
	}
	now := t.d.g.NowFunc()
	args := make([]any, 0, len(rows)*len(t.fields))
	for i := range rows {
		rv := reflect.ValueOf(&rows[i]).Elem()
		for _, f := range t.fields {
			v, err := t.value(ctx, f, rv, now, upsert)
			if err != nil {
				return err
			}
			args = append(args, v)
		}
	}
	_, err := t.d.Exec(ctx, t.insertSQL(len(rows), upsert), args...)
	return t.failed("insert", err)
}

// value is f's argument in an insert of row rv: a zero auto time (any autoUpdateTime
// one in an upsert) is now, written back into the row.
func (t *Table[T]) value(ctx context.Context, f *schema.Field, rv reflect.Value, now time.Time, upsert bool) (any, error) {
	v, zero := f.ValueOf(ctx, rv)
	if (zero && (f.AutoCreateTime > 0 || f.AutoUpdateTime > 0)) || (upsert && f.AutoUpdateTime > 0) {
		if err := f.Set(ctx, rv, now); err != nil {
			return nil, fmt.Errorf("%s: insert: %w", t.name, err)
		}
		return now, nil
	}
	return v, nil
}

// insertKey keys the cached insert statements.
type insertKey struct {
	rows   int
	upsert bool
}

func (t *Table[T]) insertSQL(n int, upsert bool) string {
	if q, ok := t.inserts.Load(insertKey{n, upsert}); ok {
		return q.(string)
	}
	one := "(" + Params(len(t.fields)) + ")"
	var b strings.Builder
	b.WriteString("INSERT INTO " + t.name + " (" + t.columns + ") VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(one)
	}
	if upsert {
		var keys, sets []string
		for _, f := range t.fields {
			switch {
			case f.PrimaryKey:
				keys = append(keys, f.DBName)
			case f.AutoCreateTime == 0:
				sets = append(sets, f.DBName+" = excluded."+f.DBName)
			}
		}
		b.WriteString(" ON CONFLICT (" + strings.Join(keys, ", ") + ") DO UPDATE SET " + strings.Join(sets, ", "))
	}
	q := t.d.Rebind(b.String())
	t.inserts.Store(insertKey{n, upsert}, q)
	return q
}

// Update is an UPDATE of a Table's rows built once (Table.Update): every column but
// the primary key and the omitted ones, under a fixed WHERE.
type Update[T any] struct {
	t      *Table[T]
	query  string
	fields []*schema.Field // the columns it sets, in its parameters' order
}

// Update builds the statement that writes every column of a row but the primary key,
// the columns the database fills and omit's to the rows where matches (a condition with ? parameters), autoUpdateTime
// columns set to now. Build it once (a repository's constructor) and Exec it.
func (t *Table[T]) Update(omit []string, where string) *Update[T] {
	up := &Update[T]{t: t}
	var b strings.Builder
	b.WriteString("UPDATE " + t.name + " SET ")
	for _, f := range t.fields {
		if f.PrimaryKey || !f.Updatable || slices.Contains(omit, f.DBName) {
			continue
		}
		if len(up.fields) > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.DBName + " = ?")
		up.fields = append(up.fields, f)
	}
	b.WriteString(" WHERE " + where)
	up.query = t.d.Rebind(b.String())
	return up
}

// Exec writes row to the rows the WHERE's arguments match and answers how many it
// changed.
func (up *Update[T]) Exec(ctx context.Context, row *T, whereArgs ...any) (int64, error) {
	now := up.t.d.g.NowFunc()
	rv := reflect.ValueOf(row).Elem()
	args := make([]any, 0, len(up.fields)+len(whereArgs))
	for _, f := range up.fields {
		v, _ := f.ValueOf(ctx, rv)
		if f.AutoUpdateTime > 0 {
			v = now
		}
		args = append(args, v)
	}
	n, err := up.t.d.Exec(ctx, up.query, append(args, whereArgs...)...)
	return n, up.t.failed("update", err)
}

// failed wraps a write's error as "<table>: <op>: <err>", a unique violation
// translated as gorm translates it (gorm.ErrDuplicatedKey).
func (t *Table[T]) failed(op string, err error) error {
	if err == nil {
		return nil
	}
	if tr, ok := t.d.g.Dialector.(gorm.ErrorTranslator); ok {
		if e := tr.Translate(err); errors.Is(e, gorm.ErrDuplicatedKey) {
			return fmt.Errorf("%s: %s: %w (%w)", t.name, op, gorm.ErrDuplicatedKey, err)
		}
	}
	return fmt.Errorf("%s: %s: %w", t.name, op, err)
}
