-- +goose Up
{{if .Postgres}}CREATE EXTENSION IF NOT EXISTS pg_trgm;{{end}}

CREATE TABLE products (
    id                   {{.UUID}} PRIMARY KEY,
    title                text NOT NULL,
    slug                 text NOT NULL,
    description          text NOT NULL DEFAULT '',
    short_description    text NOT NULL DEFAULT '',
    product_type         text NOT NULL,
    vendor               text NOT NULL DEFAULT '',
    tags                 {{.JSON}} NOT NULL,
    tags_text            text NOT NULL DEFAULT '',
    status               text NOT NULL,
    is_featured          {{.Bool}} NOT NULL DEFAULT false,
    price                {{.Money}} NOT NULL,
    compare_at_price     {{.Money}},
    cost_price           {{.Money}},
    currency             text NOT NULL,
    taxable              {{.Bool}} NOT NULL,
    requires_shipping    {{.Bool}} NOT NULL,
    weight               {{.Money}} NOT NULL,
    weight_unit          text NOT NULL,
    inventory_quantity   integer NOT NULL DEFAULT 0,
    inventory_policy     text NOT NULL,
    inventory_management text,
    low_stock_threshold  integer NOT NULL,
    has_variants         {{.Bool}} NOT NULL DEFAULT false,
    seo_title            text NOT NULL DEFAULT '',
    seo_description      text NOT NULL DEFAULT '',
    meta_fields          {{.JSON}} NOT NULL,
    created_at           {{.Time}} NOT NULL,
    updated_at           {{.Time}} NOT NULL,
    published_at         {{.Time}},
    -- Derived columns (never written by the application).
    stock_status         text GENERATED ALWAYS AS (CASE WHEN inventory_quantity <= 0 THEN 'out_of_stock' WHEN inventory_quantity <= low_stock_threshold THEN 'low_stock' ELSE 'in_stock' END) STORED,
    search_text          text GENERATED ALWAYS AS (lower(title || ' ' || tags_text || ' ' || description)) STORED
{{- if .Postgres}},
    search_vector        tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', tags_text), 'B') ||
        setweight(to_tsvector('english', description), 'C')) STORED
{{- end}}
);
CREATE UNIQUE INDEX ux_products_slug ON products (slug);
CREATE INDEX idx_products_created_at ON products (created_at);
CREATE INDEX idx_products_updated_at ON products (updated_at);
CREATE INDEX idx_products_title ON products (title);
CREATE INDEX idx_products_status_created_at ON products (status, created_at);
CREATE INDEX idx_products_product_type ON products (product_type);
CREATE INDEX idx_products_vendor ON products (vendor);
CREATE INDEX idx_products_is_featured ON products (is_featured);
CREATE INDEX idx_products_stock_status ON products (stock_status);
{{if .Postgres -}}
CREATE INDEX idx_products_price ON products (price);
-- q: full text (stemmed words) and trigram (substrings) both served by GIN indexes.
CREATE INDEX idx_products_search_vector ON products USING gin (search_vector) WITH (fastupdate = off);
CREATE INDEX idx_products_search_trgm ON products USING gin (search_text gin_trgm_ops) WITH (fastupdate = off);
{{- else -}}
-- SQLite keeps money as TEXT: sort and range-filter the price through its numeric value.
CREATE INDEX idx_products_price ON products (CAST(price AS REAL));
{{- end}}

-- One row per (product, lower-case tag): the tags filter and smart-collection tag rules.
CREATE TABLE product_tags (
    product_id {{.UUID}} NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    tag        text NOT NULL,
    PRIMARY KEY (product_id, tag)
);
CREATE INDEX idx_product_tags_tag ON product_tags (tag, product_id);

CREATE TABLE product_variants (
    id                 {{.UUID}} PRIMARY KEY,
    product_id         {{.UUID}} NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    title              text NOT NULL,
    sku                text NOT NULL DEFAULT '',
    barcode            text NOT NULL DEFAULT '',
    price              {{.Money}} NOT NULL,
    compare_at_price   {{.Money}},
    cost_price         {{.Money}},
    inventory_quantity integer NOT NULL DEFAULT 0,
    inventory_policy   text NOT NULL,
    weight             {{.Money}} NOT NULL,
    weight_unit        text NOT NULL,
    requires_shipping  {{.Bool}} NOT NULL,
    is_default         {{.Bool}} NOT NULL,
    options            {{.JSON}} NOT NULL,
    created_at         {{.Time}} NOT NULL,
    updated_at         {{.Time}} NOT NULL
);
-- SKUs are unique across the catalog; an empty SKU may repeat.
CREATE UNIQUE INDEX ux_product_variants_sku ON product_variants (sku) WHERE sku <> '';
-- At most one default variant per product.
CREATE UNIQUE INDEX ux_product_variants_default ON product_variants (product_id) WHERE is_default;
CREATE INDEX idx_product_variants_product ON product_variants (product_id, created_at);

CREATE TABLE product_images (
    id          {{.UUID}} PRIMARY KEY,
    product_id  {{.UUID}} NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    url         text NOT NULL,
    storage_key text NOT NULL,
    alt_text    text NOT NULL DEFAULT '',
    position    integer NOT NULL,
    width       integer NOT NULL,
    height      integer NOT NULL,
    file_size   {{.BigInt}} NOT NULL,
    file_type   text NOT NULL,
    created_at  {{.Time}} NOT NULL
);
CREATE INDEX idx_product_images_product_position ON product_images (product_id, position);

CREATE TABLE collections (
    id              {{.UUID}} PRIMARY KEY,
    title           text NOT NULL,
    slug            text NOT NULL,
    description     text NOT NULL DEFAULT '',
    collection_type text NOT NULL,
    rules           {{.JSON}} NOT NULL,
    is_active       {{.Bool}} NOT NULL,
    seo_title       text NOT NULL DEFAULT '',
    seo_description text NOT NULL DEFAULT '',
    created_at      {{.Time}} NOT NULL,
    updated_at      {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_collections_slug ON collections (slug);
CREATE INDEX idx_collections_created_at ON collections (created_at);
CREATE INDEX idx_collections_updated_at ON collections (updated_at);
CREATE INDEX idx_collections_title ON collections (title);
CREATE INDEX idx_collections_active_type ON collections (is_active, collection_type);

CREATE TABLE collection_products (
    collection_id {{.UUID}} NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    product_id    {{.UUID}} NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position      integer NOT NULL,
    created_at    {{.Time}} NOT NULL,
    PRIMARY KEY (collection_id, product_id)
);
CREATE INDEX idx_collection_products_position ON collection_products (collection_id, position);
CREATE INDEX idx_collection_products_product ON collection_products (product_id);

-- +goose Down
DROP TABLE collection_products;
DROP TABLE collections;
DROP TABLE product_images;
DROP TABLE product_variants;
DROP TABLE product_tags;
DROP TABLE products;
