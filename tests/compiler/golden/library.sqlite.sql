-- The relational schema of these readings (Halpin's Rmap), SQLite dialect,
-- written by arest (docs/sql.md says how each fact type maps to a table and column).
-- SQLite checks the foreign keys when the connection runs PRAGMA foreign_keys = ON.

CREATE TABLE adult_member (
    card_number TEXT NOT NULL,
    PRIMARY KEY (card_number),
    FOREIGN KEY (card_number) REFERENCES member (card_number)
);

CREATE TABLE author (
    author_name TEXT NOT NULL,
    PRIMARY KEY (author_name)
);

CREATE TABLE book (
    isbn TEXT NOT NULL,
    title TEXT NOT NULL,
    PRIMARY KEY (isbn)
);

CREATE TABLE book_is_written_by_author (
    book TEXT NOT NULL,
    author TEXT NOT NULL,
    PRIMARY KEY (book, author),
    FOREIGN KEY (book) REFERENCES book (isbn),
    FOREIGN KEY (author) REFERENCES author (author_name)
);

CREATE TABLE branch_library (
    branch_code TEXT NOT NULL,
    PRIMARY KEY (branch_code)
);

CREATE TABLE copy (
    barcode TEXT NOT NULL,
    book TEXT NOT NULL,
    branch_library TEXT NOT NULL,
    condition TEXT NOT NULL,
    is_lost BOOLEAN NOT NULL DEFAULT FALSE,
    is_on_loan BOOLEAN NOT NULL DEFAULT FALSE,
    is_shelved BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (barcode),
    -- c-a1ac980ea43d: The possible values of Condition are 'new', 'good', 'worn', 'damaged'.
    CHECK (condition IN ('damaged', 'good', 'new', 'worn')),
    FOREIGN KEY (book) REFERENCES book (isbn),
    FOREIGN KEY (branch_library) REFERENCES branch_library (branch_code)
);

CREATE TABLE hold (
    id TEXT NOT NULL,
    queue_position TEXT NOT NULL,
    PRIMARY KEY (id)
);

CREATE TABLE junior_member (
    card_number TEXT NOT NULL,
    guardian_name TEXT NOT NULL,
    PRIMARY KEY (card_number),
    FOREIGN KEY (card_number) REFERENCES member (card_number)
);

CREATE TABLE loan (
    loan_id TEXT NOT NULL,
    copy TEXT NOT NULL,
    days_late TEXT,
    loan_days TEXT NOT NULL,
    member TEXT NOT NULL,
    status TEXT,
    PRIMARY KEY (loan_id),
    FOREIGN KEY (copy) REFERENCES copy (barcode),
    FOREIGN KEY (member) REFERENCES member (card_number)
);

CREATE TABLE member (
    card_number TEXT NOT NULL,
    email TEXT,
    is_barred BOOLEAN NOT NULL DEFAULT FALSE,
    library_card TEXT,
    may_borrow BOOLEAN NOT NULL DEFAULT FALSE,
    phone TEXT,
    PRIMARY KEY (card_number)
);

CREATE TABLE member_is_waiting_for_book (
    member TEXT NOT NULL,
    book TEXT NOT NULL,
    PRIMARY KEY (member, book),
    FOREIGN KEY (member) REFERENCES member (card_number),
    FOREIGN KEY (book) REFERENCES book (isbn)
);

CREATE TABLE member_reserves_book_on_reservation_date (
    member TEXT NOT NULL,
    book TEXT NOT NULL,
    reservation_date TEXT NOT NULL,
    PRIMARY KEY (member, book),
    FOREIGN KEY (member) REFERENCES member (card_number),
    FOREIGN KEY (book) REFERENCES book (isbn)
);

-- Derived fact types as views: each computes the facts arest derives (docs/sql.md, Views).
-- Copy_is_available (*)
--   * Copy is available iff Copy is shelved and Copy is not lost.
CREATE VIEW copy_is_available AS
SELECT DISTINCT f1.barcode AS copy
FROM copy AS f1
WHERE f1.is_shelved = TRUE AND NOT EXISTS (SELECT 1 FROM copy AS f2 WHERE f2.is_lost = TRUE AND f2.barcode = f1.barcode);

-- Loan_is_long (*)
--   * Loan is long iff Loan has Loan Days and that Loan Days is greater than 21.
CREATE VIEW loan_is_long AS
SELECT DISTINCT f1.loan_id AS loan
FROM loan AS f1
WHERE (((f1.loan_days GLOB '[0-9]*' OR f1.loan_days GLOB '-[0-9]*') AND substr(f1.loan_days, 2) NOT GLOB '*[^0-9.]*' AND f1.loan_days NOT GLOB '*.' AND f1.loan_days NOT GLOB '*.*.*') AND CAST(f1.loan_days AS NUMERIC) > 21);

-- Member_has_Loan_Count (*)
--   * Member has Loan Count iff Loan Count is the count of Loan where Loan is taken by that Member.
CREATE VIEW member_has_loan_count AS
SELECT f1.member AS member, CAST(count(DISTINCT f1.loan_id) AS TEXT) AS loan_count
FROM loan AS f1
GROUP BY f1.member;

-- Constraints arest enforces that these tables do not state:
--   c-7da813f68a7c (UC, an external uniqueness over roles in several tables): For each Title and Author, at most one Book has that Title and is written by that Author.
--   c-937c85cc4326 (XO, an exclusive-or across tables or rows): For each Copy, exactly one of the following holds: that Copy is shelved; that Copy is on loan; that Copy is lost.
--   c-9e0e40b58336 (MC, a mandatory role whose facts are not stored in its player's row: arest checks that each one plays it): Each Book is written by at least one Author.
--   c-bd963c92c76b (OR, an inclusive-or across tables or rows): Each Member is an Adult Member or a Junior Member.
--   c-e00e8cfe337f (OR, an inclusive-or across tables or rows): For each Member, at least one of the following holds: that Member has some Email; that Member has some Phone.
-- Deontic constraints: arest reports their violations and accepts the change, so no table refuses them:
--   c-0200db9ff272 (FC): It is permitted that a Member is waiting for more than one Book.
--   c-29ffb50ecc2c (VC): It is obligatory that each Loan has Loan Days at most 28.
--   c-fd4ec9654d84 (SS): It is forbidden that a Loan is taken by a Member that has no Library Card.
-- Derived fact types that no view computes: arest derives their facts; no table stores them:
--   Loan_has_Allowed_Days (*, a computation: arest computes with numerals and writes its own, the columns hold text)
--     * Loan has Allowed Days iff Loan has Loan Days and Allowed Days is that Loan Days plus 7.
--   Loan_has_Fine (*, a computation: arest computes with numerals and writes its own, the columns hold text)
--     * Loan has Fine iff Loan has Days Late and Fine is that Days Late times 2.
-- Tables that hold the asserted facts only: arest derives more facts of these fact types:
--   Member_may_borrow (+)
--     + Member may borrow if Member has Library Card and Member is not barred.
--     + Member may borrow if Member is an Adult Member and Member has Library Card.
