// The admin dashboard: staff sign in with POST /api/v1/admin/auth/login, then the page
// reads the statistics, products, dunning and webhooks endpoints with the staff token
// (kept in sessionStorage: gone with the tab) and draws them. No other host is asked
// for anything (the server's Content-Security-Policy says so too).
"use strict";
(function () {
  const TOKEN = "commerce_admin_token";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const charts = {};

  function token() { return sessionStorage.getItem(TOKEN); }

  async function api(path) {
    const res = await fetch(path, { headers: { Authorization: "Bearer " + token(), Accept: "application/json" } });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401) { signOut(); throw new Error("signed out"); }
    if (!res.ok) {
      const msg = (body.error && (body.error.message || body.error)) || ("HTTP " + res.status);
      throw new Error(typeof msg === "string" ? msg : "HTTP " + res.status);
    }
    return body;
  }

  function text(el, value) { el.textContent = value == null ? "" : String(value); return el; }
  function cell(tr, value, cls) { const td = document.createElement("td"); if (cls) td.className = cls; text(td, value); tr.appendChild(td); return td; }
  function money(m) { return m ? m.amount + " " + (m.currency || "") : "–"; }
  function note(section, msg) { text($(".note", section), msg); }

  function change(el, c) {
    el.className = "change";
    if (!c || c.change_percentage == null) { text(el, ""); return; }
    const dir = c.change_direction || "flat";
    if (dir === "up" || dir === "down") el.classList.add(dir);
    text(el, (dir === "up" ? "▲ " : dir === "down" ? "▼ " : "") + c.change_percentage + "% vs previous period");
  }

  function rows(section, list, fill, empty) {
    const body = $("tbody", section);
    body.replaceChildren();
    for (const item of list) { const tr = document.createElement("tr"); fill(tr, item); body.appendChild(tr); }
    note(section, list.length ? "" : empty);
  }

  function chart(id, opts, data) {
    const el = document.getElementById(id);
    if (charts[id]) charts[id].destroy();
    el.replaceChildren();
    opts.width = Math.max(el.clientWidth, 280);
    opts.height = 240;
    charts[id] = new uPlot(opts, data, el);
  }

  async function section(id, load) {
    const el = document.getElementById(id);
    try { await load(el); } catch (e) { if (e.message !== "signed out") note(el, "Unavailable: " + e.message); }
  }

  function dashboard(period) {
    const q = "date_from=" + encodeURIComponent(period) + "&date_to=today";
    const dash = api("/api/v1/admin/statistics/dashboard?" + q).then((r) => r.data);
    return Promise.all([
      section("cards", async () => {
        const d = await dash;
        const s = d.sales || {};
        text($("#card-revenue .value"), money(s.total_revenue)); change($("#card-revenue .change"), s.total_revenue);
        text($("#card-orders .value"), s.total_orders ? s.total_orders.count : "–"); change($("#card-orders .change"), s.total_orders);
        text($("#card-aov .value"), money(s.average_order_value)); change($("#card-aov .change"), s.average_order_value);
        text($("#card-customers .value"), d.customers ? d.customers.new_customers : "–"); change($("#card-customers .change"), null);
      }),
      section("sales", async (el) => {
        const r = await api("/api/v1/admin/statistics/sales?" + q + "&period=day");
        const series = (r.data && r.data.time_series) || [];
        const xs = series.map((p) => Date.parse(p.date) / 1000);
        const revenue = series.map((p) => Number(p.revenue));
        const orders = series.map((p) => Number(p.orders));
        chart("sales-chart", {
          scales: { x: { time: true }, orders: {} },
          series: [{}, { label: "Revenue", stroke: "#2f6fed", width: 2, fill: "rgba(47,111,237,0.08)" },
            { label: "Orders", stroke: "#177245", width: 2, scale: "orders" }],
          axes: [{}, { label: "Revenue" }, { side: 1, scale: "orders", label: "Orders", grid: { show: false } }],
        }, [xs, revenue, orders]);
        note(el, series.length ? "" : "No sales in this period.");
      }),
      section("statuses", async (el) => {
        const d = await dash;
        const by = (d.orders && d.orders.by_status) || {};
        const names = Object.keys(by);
        chart("status-chart", {
          scales: { x: { time: false, range: [-0.5, Math.max(names.length - 0.5, 0.5)] } },
          series: [{}, { label: "Orders", fill: "#2f6fed", stroke: "#2f6fed", paths: uPlot.paths.bars({ size: [0.6, 64] }), points: { show: false } }],
          axes: [{ values: (u, ticks) => ticks.map((t) => (Number.isInteger(t) && names[t]) || ""), splits: () => names.map((_, i) => i) }, {}],
          legend: { show: false },
        }, [names.map((_, i) => i), names.map((n) => Number(by[n]) || 0)]);
        const rate = d.orders && d.orders.fulfillment_rate;
        note(el, names.length ? (rate != null ? "Fulfillment rate: " + rate + "%" : "") : "No orders in this period.");
      }),
      section("top-products", async (el) => {
        const d = await dash;
        rows(el, (d.products && d.products.top_selling) || [], (tr, p) => {
          cell(tr, p.title); cell(tr, p.quantity_sold, "num"); cell(tr, typeof p.revenue === "object" ? money(p.revenue) : p.revenue, "num");
        }, "Nothing sold in this period.");
      }),
    ]);
  }

  function lists() {
    return Promise.all([
      section("low-stock", async (el) => {
        const r = await api("/api/v1/products?inventory_status=low_stock&limit=10");
        rows(el, r.data || [], (tr, p) => { cell(tr, p.title); cell(tr, p.inventory_quantity, "num"); cell(tr, p.low_stock_threshold, "num"); },
          "No product is low on stock.");
      }),
      section("failed-payments", async (el) => {
        const r = await api("/api/v1/admin/dunning/failed-payments?limit=10");
        const list = Array.isArray(r.data) ? r.data : (r.data && (r.data.failed_payments || r.data.items)) || [];
        rows(el, list, (tr, f) => {
          cell(tr, f.subscription_id || f.id);
          cell(tr, f.amount && typeof f.amount === "object" ? money(f.amount) : (f.amount || "") + " " + (f.currency || ""), "num");
          cell(tr, f.attempt_count != null ? f.attempt_count : f.attempts, "num");
          cell(tr, f.next_retry_at || f.next_attempt_at || "–");
        }, "No failed subscription payments.");
      }),
      section("webhooks", async (el) => {
        const r = await api("/api/v1/webhooks?limit=50");
        rows(el, r.data || [], (tr, w) => {
          cell(tr, w.url); cell(tr, (w.events || []).join(", "));
          const badge = document.createElement("span");
          badge.className = "badge " + (w.enabled ? "ok" : "off");
          text(badge, w.enabled ? "enabled" : "disabled");
          cell(tr, "").appendChild(badge);
          cell(tr, w.failure_count, "num");
        }, "No webhook endpoints.");
      }),
    ]);
  }

  async function show() {
    const signedIn = !!token();
    $("#login").hidden = signedIn;
    $("#session").hidden = !signedIn;
    $("#dashboard").hidden = !signedIn;
    if (!signedIn) return;
    text($("#who"), sessionStorage.getItem(TOKEN + "_email") || "");
    document.body.dataset.state = "loading";
    await Promise.all([dashboard($("#period").value), lists()]);
    document.body.dataset.state = "ready";
  }

  function signOut() {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(TOKEN + "_email");
    for (const id of Object.keys(charts)) { charts[id].destroy(); delete charts[id]; }
    show();
  }

  $("#login").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const email = $("#email").value, password = $("#password").value;
    text($("#login-error"), "");
    const res = await fetch("/api/v1/admin/auth/login", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ email, password }),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok || !body.access_token) {
      text($("#login-error"), (body.error && body.error.message) || "Sign-in failed");
      return;
    }
    sessionStorage.setItem(TOKEN, body.access_token);
    sessionStorage.setItem(TOKEN + "_email", email);
    $("#password").value = "";
    show();
  });
  $("#logout").addEventListener("click", signOut);
  $("#period").addEventListener("change", show);
  show();
})();
