package orders_test

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

func TestInventoryBehaviour(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		mk := func(behaviour string, lines ...any) httpxtest.Response {
			return h.Do(http.MethodPost, "/api/v1/orders", map[string]any{"email": guestEmail, "inventory_behaviour": behaviour, "line_items": lines}, "admin")
		}
		mug := func(q int) map[string]any { return map[string]any{"product_id": prodMug, "quantity": q} }
		shirtM := func(q int) map[string]any {
			return map[string]any{"product_id": prodShirt, "variant_id": varShirtM, "quantity": q}
		}
		ebook := map[string]any{"product_id": prodEbook, "quantity": 3}
		// bypass (the default) leaves stock alone.
		if r := mk("", mug(2)); r.Code != 201 || r.Data()["inventory_behaviour"] != "bypass" || h.inventory.level(varMug) != 5 {
			t.Fatalf("bypass: %d %s; mug stock %d", r.Code, r.Raw, h.inventory.level(varMug))
		}
		// Obeying the policy: stock goes down for tracked variants only.
		if r := mk("decrement_obeying_policy", mug(2), ebook); r.Code != 201 || h.inventory.level(varMug) != 3 {
			t.Fatalf("obeying: %d %s; mug stock %d", r.Code, r.Raw, h.inventory.level(varMug))
		}
		// Not enough of one line: INSUFFICIENT_INVENTORY, nothing created, the other
		// line's decrement rolled back, no number used, no event.
		before := h.Count("orders", "1 = 1")
		events := len(h.Events())
		r := mk("decrement_obeying_policy", mug(1), shirtM(2))
		assertError(t, r, 400, "INSUFFICIENT_INVENTORY", "validation")
		if h.Count("orders", "1 = 1") != before || len(h.Events()) != events || h.inventory.level(varMug) != 3 || h.inventory.level(varShirtM) != 1 {
			t.Fatalf("refused order left traces: orders %d events %d mug %d shirt %d", h.Count("orders", "1 = 1"), len(h.Events()), h.inventory.level(varMug), h.inventory.level(varShirtM))
		}
		// Ignoring the policy takes what there is (the inventory module never lets a deny
		// variant go negative) and creates the order.
		o := mk("decrement_ignoring_policy", shirtM(3), mug(1))
		if o.Code != 201 || o.Data()["order_number"] != "1003" || h.inventory.level(varShirtM) != 0 || h.inventory.level(varMug) != 2 {
			t.Fatalf("ignoring: %d %s; shirt %d mug %d", o.Code, o.Raw, h.inventory.level(varShirtM), h.inventory.level(varMug))
		}
		// Cancelling with restock gives back exactly what the order took (1 shirt, 1 mug).
		id := o.Data()["id"].(string)
		h.cancelRestocking(id)
		h.expectLevels("restock", map[string]int{varShirtM: 1, varMug: 3})
		// Reopening does not claim again; cancelling again with restock returns nothing more.
		h.reopen(id)
		h.cancelRestocking(id)
		h.expectLevels("double restock", map[string]int{varShirtM: 1, varMug: 3})
	})
}

// TestOrderNumbersConcurrent creates 20 orders at once: the numbers are exactly
// 1001..1020, without gaps or duplicates, while stock claims race too.
func TestOrderNumbersConcurrent(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		h := newHarness(t, engine)
		h.inventory.put(prodMug, varMug, 100, "deny")
		const n = 20
		var wg sync.WaitGroup
		numbers := make([]string, n)
		errs := make([]string, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := h.Do(http.MethodPost, "/api/v1/orders", map[string]any{
					"email": fmt.Sprintf("c%d@example.com", i), "inventory_behaviour": "decrement_obeying_policy",
					"line_items": []any{map[string]any{"product_id": prodMug, "quantity": 1}},
				}, "admin")
				if r.Code != http.StatusCreated {
					errs[i] = r.Raw
					return
				}
				numbers[i], _ = r.Data()["order_number"].(string)
			}()
		}
		wg.Wait()
		for i, e := range errs {
			if e != "" {
				t.Fatalf("order %d: %s", i, e)
			}
		}
		sort.Strings(numbers)
		for i, got := range numbers {
			if want := fmt.Sprint(1001 + i); got != want {
				t.Fatalf("numbers %v: position %d is %s, want %s", numbers, i, got, want)
			}
		}
		if h.inventory.level(varMug) != 100-n || len(h.Events("order.created")) != n {
			t.Fatalf("stock %d, order.created %d", h.inventory.level(varMug), len(h.Events("order.created")))
		}
	})
}
