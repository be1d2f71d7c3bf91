-- The relational schema of these readings (Halpin's Rmap), SQLite dialect,
-- written by arest (docs/sql.md says how each fact type maps to a table and column).
-- SQLite checks the foreign keys when the connection runs PRAGMA foreign_keys = ON.

CREATE TABLE category (
    category_code TEXT NOT NULL,
    parent_category TEXT,
    PRIMARY KEY (category_code),
    FOREIGN KEY (parent_category) REFERENCES category (category_code)
);

CREATE TABLE customer (
    email TEXT NOT NULL,
    is_a_reseller BOOLEAN NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    PRIMARY KEY (email)
);

CREATE TABLE line_item (
    id TEXT NOT NULL,
    amount TEXT,
    "order" TEXT NOT NULL,
    product TEXT NOT NULL,
    quantity TEXT NOT NULL,
    PRIMARY KEY (id),
    FOREIGN KEY ("order") REFERENCES "order" (order_number),
    FOREIGN KEY (product) REFERENCES product (sku)
);

CREATE TABLE "order" (
    order_number TEXT NOT NULL,
    customer TEXT NOT NULL,
    priority TEXT,
    status TEXT,
    PRIMARY KEY (order_number),
    -- c-616cbb9b3bb8: The possible values of Priority are 'low', 'normal', 'rush'.
    CHECK (priority IN ('low', 'normal', 'rush')),
    FOREIGN KEY (customer) REFERENCES customer (email)
);

CREATE TABLE product (
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (sku)
);

CREATE TABLE product_is_in_category (
    product TEXT NOT NULL,
    category TEXT NOT NULL,
    PRIMARY KEY (product, category),
    FOREIGN KEY (product) REFERENCES product (sku),
    FOREIGN KEY (category) REFERENCES category (category_code)
);

-- Derived fact types as views: each computes the facts arest derives (docs/sql.md, Views).
-- Customer_has_Unpaid_Order_Count (*)
--   * Customer has Unpaid Order Count iff Unpaid Order Count is the count of Order where Order was placed by that Customer and Order has Status 'Placed'.
CREATE VIEW customer_has_unpaid_order_count AS
SELECT f1.customer AS customer, CAST(count(DISTINCT f1.order_number) AS TEXT) AS unpaid_order_count
FROM "order" AS f1
WHERE f1.status = 'Placed'
GROUP BY f1.customer;

-- Constraints arest enforces that these tables do not state:
--   c-4a3e9557f661 (UC, spans a derived fact type): Each Customer has at most one Unpaid Order Count.
--   c-7ae138d95b9d (AC, a ring over paths of rows): Category has parent Category is acyclic.
-- Deontic constraints: arest reports their violations and accepts the change, so no table refuses them:
--   c-a4c0040a6577 (VC): It is forbidden that a LineItem has Quantity less than 1.
