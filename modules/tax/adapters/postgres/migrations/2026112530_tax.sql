-- +goose Up
-- Tax zones: a country, or a region (US state) of one.
CREATE TABLE tax_zones (
    id           {{.UUID}} PRIMARY KEY,
    name         text NOT NULL,
    code         text NOT NULL,
    country_code text NOT NULL,
    region_code  text NOT NULL DEFAULT '',
    zone_type    text NOT NULL,
    created_at   {{.Time}} NOT NULL,
    updated_at   {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_tax_zones_code ON tax_zones (code);

CREATE TABLE tax_categories (
    id             {{.UUID}} PRIMARY KEY,
    name           text NOT NULL,
    code           text NOT NULL,
    description    text NOT NULL DEFAULT '',
    is_digital     {{.Bool}} NOT NULL DEFAULT false,
    is_food        {{.Bool}} NOT NULL DEFAULT false,
    is_luxury      {{.Bool}} NOT NULL DEFAULT false,
    is_medical     {{.Bool}} NOT NULL DEFAULT false,
    is_educational {{.Bool}} NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX ux_tax_categories_code ON tax_categories (code);

-- rate is a decimal fraction kept as written ("0.0725"): text on both engines, so no
-- scale rounds it. valid_from / valid_until are dates YYYY-MM-DD (until inclusive).
CREATE TABLE tax_rates (
    id              {{.UUID}} PRIMARY KEY,
    name            text NOT NULL,
    tax_zone_id     {{.UUID}} NOT NULL REFERENCES tax_zones (id),
    tax_category_id {{.UUID}} REFERENCES tax_categories (id),
    rate            text NOT NULL,
    rate_type       text NOT NULL,
    is_vat          {{.Bool}} NOT NULL,
    vat_type        text NOT NULL DEFAULT '',
    b2b_exempt      {{.Bool}} NOT NULL,
    reverse_charge  {{.Bool}} NOT NULL,
    valid_from      text NOT NULL,
    valid_until     text,
    priority        integer NOT NULL DEFAULT 0,
    created_at      {{.Time}} NOT NULL,
    updated_at      {{.Time}} NOT NULL
);
CREATE INDEX idx_tax_rates_zone ON tax_rates (tax_zone_id);

-- US economic nexus: thresholds per state (sales, and transactions where the state
-- counts them) and whether the merchant registered there (docs/decisions/0136).
CREATE TABLE tax_nexus (
    country_code           text NOT NULL,
    region_code            text NOT NULL,
    sales_threshold        {{.Money}} NOT NULL,
    transactions_threshold integer NOT NULL DEFAULT 0,
    registered             {{.Bool}} NOT NULL DEFAULT false,
    PRIMARY KEY (country_code, region_code)
);

-- The taxes of created orders (order.created): OSS returns and US nexus read them.
CREATE TABLE tax_orders (
    order_id     text PRIMARY KEY,
    country_code text NOT NULL,
    region_code  text NOT NULL DEFAULT '',
    currency     text NOT NULL,
    sales        {{.Money}} NOT NULL,
    total        {{.Money}} NOT NULL,
    has_goods    {{.Bool}} NOT NULL,
    created_at   {{.Time}} NOT NULL
);
CREATE INDEX idx_tax_orders_created ON tax_orders (created_at);

-- Sales and order counts per state and calendar year, added to as orders are recorded
-- (nexus reads these few rows, not the orders).
CREATE TABLE tax_nexus_sales (
    country_code text NOT NULL,
    region_code  text NOT NULL,
    year         integer NOT NULL,
    sales        {{.Money}} NOT NULL,
    transactions integer NOT NULL,
    PRIMARY KEY (country_code, region_code, year)
);

CREATE TABLE tax_order_lines (
    order_id text NOT NULL REFERENCES tax_orders (order_id),
    line_no  integer NOT NULL,
    rate     text NOT NULL,
    taxable  {{.Money}} NOT NULL,
    tax      {{.Money}} NOT NULL,
    PRIMARY KEY (order_id, line_no)
);

-- VIES answers, kept tax.vat_cache_days days.
CREATE TABLE tax_vat_checks (
    vat_id       text PRIMARY KEY,
    country_code text NOT NULL,
    is_valid     {{.Bool}} NOT NULL,
    name         text NOT NULL DEFAULT '',
    address      text NOT NULL DEFAULT '',
    checked_at   {{.Time}} NOT NULL
);

-- Shipped data (Part 2 "Tax and checkout"): the 27 EU standard VAT rates (2026) and
-- the base sales tax of the US states with economic-nexus thresholds, fixed ids on
-- every engine and installation.

INSERT INTO tax_categories (id, name, code, description, is_digital, is_food, is_luxury, is_medical, is_educational) VALUES
('00000000-0000-4000-8000-0000000c0001', 'Digital goods', 'digital', 'Electronically supplied services and digital products', TRUE, FALSE, FALSE, FALSE, FALSE),
('00000000-0000-4000-8000-0000000c0002', 'Food', 'food', 'Foodstuffs', FALSE, TRUE, FALSE, FALSE, FALSE),
('00000000-0000-4000-8000-0000000c0003', 'Luxury goods', 'luxury', 'Luxury goods', FALSE, FALSE, TRUE, FALSE, FALSE),
('00000000-0000-4000-8000-0000000c0004', 'Medical', 'medical', 'Medical products', FALSE, FALSE, FALSE, TRUE, FALSE),
('00000000-0000-4000-8000-0000000c0005', 'Educational', 'educational', 'Books and educational material', FALSE, FALSE, FALSE, FALSE, TRUE);

INSERT INTO tax_zones (id, name, code, country_code, region_code, zone_type, created_at, updated_at) VALUES
('00000000-0000-4000-8000-0000000a0001', 'Austria', 'AT', 'AT', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0002', 'Belgium', 'BE', 'BE', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0003', 'Bulgaria', 'BG', 'BG', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0004', 'Croatia', 'HR', 'HR', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0005', 'Cyprus', 'CY', 'CY', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0006', 'Czechia', 'CZ', 'CZ', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0007', 'Denmark', 'DK', 'DK', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0008', 'Estonia', 'EE', 'EE', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0009', 'Finland', 'FI', 'FI', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0010', 'France', 'FR', 'FR', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0011', 'Germany', 'DE', 'DE', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0012', 'Greece', 'GR', 'GR', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0013', 'Hungary', 'HU', 'HU', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0014', 'Ireland', 'IE', 'IE', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0015', 'Italy', 'IT', 'IT', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0016', 'Latvia', 'LV', 'LV', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0017', 'Lithuania', 'LT', 'LT', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0018', 'Luxembourg', 'LU', 'LU', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0019', 'Malta', 'MT', 'MT', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0020', 'Netherlands', 'NL', 'NL', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0021', 'Poland', 'PL', 'PL', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0022', 'Portugal', 'PT', 'PT', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0023', 'Romania', 'RO', 'RO', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0024', 'Slovakia', 'SK', 'SK', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0025', 'Slovenia', 'SI', 'SI', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0026', 'Spain', 'ES', 'ES', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0027', 'Sweden', 'SE', 'SE', '', 'country', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0101', 'California', 'US-CA', 'US', 'CA', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0102', 'New York', 'US-NY', 'US', 'NY', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0103', 'Texas', 'US-TX', 'US', 'TX', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0104', 'Florida', 'US-FL', 'US', 'FL', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0105', 'Illinois', 'US-IL', 'US', 'IL', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0106', 'Pennsylvania', 'US-PA', 'US', 'PA', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0107', 'Ohio', 'US-OH', 'US', 'OH', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0108', 'Georgia', 'US-GA', 'US', 'GA', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0109', 'North Carolina', 'US-NC', 'US', 'NC', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000a0110', 'Michigan', 'US-MI', 'US', 'MI', 'state', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');

INSERT INTO tax_rates (id, name, tax_zone_id, tax_category_id, rate, rate_type, is_vat, vat_type, b2b_exempt, reverse_charge, valid_from, valid_until, priority, created_at, updated_at) VALUES
('00000000-0000-4000-8000-0000000b0001', 'AT VAT', '00000000-0000-4000-8000-0000000a0001', NULL, '0.2', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0002', 'BE VAT', '00000000-0000-4000-8000-0000000a0002', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0003', 'BG VAT', '00000000-0000-4000-8000-0000000a0003', NULL, '0.2', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0004', 'HR VAT', '00000000-0000-4000-8000-0000000a0004', NULL, '0.25', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0005', 'CY VAT', '00000000-0000-4000-8000-0000000a0005', NULL, '0.19', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0006', 'CZ VAT', '00000000-0000-4000-8000-0000000a0006', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0007', 'DK VAT', '00000000-0000-4000-8000-0000000a0007', NULL, '0.25', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0008', 'EE VAT', '00000000-0000-4000-8000-0000000a0008', NULL, '0.22', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0009', 'FI VAT', '00000000-0000-4000-8000-0000000a0009', NULL, '0.25', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0010', 'FR VAT', '00000000-0000-4000-8000-0000000a0010', NULL, '0.2', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0011', 'DE VAT', '00000000-0000-4000-8000-0000000a0011', NULL, '0.19', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0012', 'GR VAT', '00000000-0000-4000-8000-0000000a0012', NULL, '0.24', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0013', 'HU VAT', '00000000-0000-4000-8000-0000000a0013', NULL, '0.27', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0014', 'IE VAT', '00000000-0000-4000-8000-0000000a0014', NULL, '0.23', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0015', 'IT VAT', '00000000-0000-4000-8000-0000000a0015', NULL, '0.22', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0016', 'LV VAT', '00000000-0000-4000-8000-0000000a0016', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0017', 'LT VAT', '00000000-0000-4000-8000-0000000a0017', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0018', 'LU VAT', '00000000-0000-4000-8000-0000000a0018', NULL, '0.17', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0019', 'MT VAT', '00000000-0000-4000-8000-0000000a0019', NULL, '0.18', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0020', 'NL VAT', '00000000-0000-4000-8000-0000000a0020', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0021', 'PL VAT', '00000000-0000-4000-8000-0000000a0021', NULL, '0.23', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0022', 'PT VAT', '00000000-0000-4000-8000-0000000a0022', NULL, '0.23', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0023', 'RO VAT', '00000000-0000-4000-8000-0000000a0023', NULL, '0.19', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0024', 'SK VAT', '00000000-0000-4000-8000-0000000a0024', NULL, '0.2', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0025', 'SI VAT', '00000000-0000-4000-8000-0000000a0025', NULL, '0.22', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0026', 'ES VAT', '00000000-0000-4000-8000-0000000a0026', NULL, '0.21', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0027', 'SE VAT', '00000000-0000-4000-8000-0000000a0027', NULL, '0.25', 'percentage', TRUE, 'standard', TRUE, TRUE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0101', 'California sales tax', '00000000-0000-4000-8000-0000000a0101', NULL, '0.0725', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0102', 'New York sales tax', '00000000-0000-4000-8000-0000000a0102', NULL, '0.04', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0103', 'Texas sales tax', '00000000-0000-4000-8000-0000000a0103', NULL, '0.0625', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0104', 'Florida sales tax', '00000000-0000-4000-8000-0000000a0104', NULL, '0.06', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0105', 'Illinois sales tax', '00000000-0000-4000-8000-0000000a0105', NULL, '0.0625', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0106', 'Pennsylvania sales tax', '00000000-0000-4000-8000-0000000a0106', NULL, '0.06', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0107', 'Ohio sales tax', '00000000-0000-4000-8000-0000000a0107', NULL, '0.0575', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0108', 'Georgia sales tax', '00000000-0000-4000-8000-0000000a0108', NULL, '0.04', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0109', 'North Carolina sales tax', '00000000-0000-4000-8000-0000000a0109', NULL, '0.0475', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00'),
('00000000-0000-4000-8000-0000000b0110', 'Michigan sales tax', '00000000-0000-4000-8000-0000000a0110', NULL, '0.06', 'percentage', FALSE, '', FALSE, FALSE, '2026-01-01', NULL, 0, '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');

INSERT INTO tax_nexus (country_code, region_code, sales_threshold, transactions_threshold, registered) VALUES
('US', 'CA', 500000, 0, FALSE),
('US', 'NY', 500000, 100, FALSE),
('US', 'TX', 500000, 0, FALSE),
('US', 'FL', 100000, 0, FALSE),
('US', 'IL', 100000, 0, FALSE),
('US', 'PA', 100000, 0, FALSE),
('US', 'OH', 100000, 200, FALSE),
('US', 'GA', 100000, 200, FALSE),
('US', 'NC', 100000, 0, FALSE),
('US', 'MI', 100000, 200, FALSE);


-- +goose Down
DROP TABLE tax_vat_checks;
DROP TABLE tax_order_lines;
DROP TABLE tax_nexus_sales;
DROP TABLE tax_orders;
DROP TABLE tax_nexus;
DROP TABLE tax_rates;
DROP TABLE tax_categories;
DROP TABLE tax_zones;
