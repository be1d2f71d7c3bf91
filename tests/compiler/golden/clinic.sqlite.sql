-- The relational schema of these readings (Halpin's Rmap), SQLite dialect,
-- written by arest (docs/sql.md says how each fact type maps to a table and column).
-- SQLite checks the foreign keys when the connection runs PRAGMA foreign_keys = ON.

CREATE TABLE charge (
    id TEXT NOT NULL,
    amount TEXT NOT NULL,
    procedure TEXT NOT NULL,
    quantity TEXT NOT NULL,
    visit TEXT NOT NULL,
    PRIMARY KEY (id),
    -- c-e4834b8aca39: Each Charge has Quantity less than 100.
    CHECK (quantity IS NULL OR (((quantity GLOB '[0-9]*' OR quantity GLOB '-[0-9]*') AND substr(quantity, 2) NOT GLOB '*[^0-9.]*' AND quantity NOT GLOB '*.' AND quantity NOT GLOB '*.*.*') AND CAST(quantity AS NUMERIC) < 100)),
    FOREIGN KEY (visit) REFERENCES visit (visit_number)
);

CREATE TABLE clinician (
    staff_code TEXT NOT NULL,
    full_name TEXT NOT NULL,
    PRIMARY KEY (staff_code)
);

CREATE TABLE doctor (
    staff_code TEXT NOT NULL,
    specialty TEXT NOT NULL,
    PRIMARY KEY (staff_code),
    -- c-5b698ae4a531: The possible values of Specialty are 'general', 'pediatrics', 'cardiology', 'dermatology'.
    CHECK (specialty IN ('cardiology', 'dermatology', 'general', 'pediatrics')),
    FOREIGN KEY (staff_code) REFERENCES clinician (staff_code)
);

CREATE TABLE nurse (
    staff_code TEXT NOT NULL,
    shift TEXT,
    PRIMARY KEY (staff_code),
    FOREIGN KEY (staff_code) REFERENCES clinician (staff_code)
);

CREATE TABLE patient (
    patient_number TEXT NOT NULL,
    email TEXT,
    full_name TEXT NOT NULL,
    home_address TEXT,
    phone TEXT,
    PRIMARY KEY (patient_number)
);

CREATE TABLE patient_has_emergency_contact (
    patient TEXT NOT NULL,
    emergency_contact TEXT NOT NULL,
    PRIMARY KEY (patient, emergency_contact),
    FOREIGN KEY (patient) REFERENCES patient (patient_number)
);

CREATE TABLE payment (
    payment_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    payment_method TEXT NOT NULL,
    status TEXT,
    visit TEXT NOT NULL,
    PRIMARY KEY (payment_id),
    -- c-bcf2f9839755: The possible values of Payment Method are 'card', 'cash', 'insurance'.
    CHECK (payment_method IN ('card', 'cash', 'insurance')),
    FOREIGN KEY (visit) REFERENCES visit (visit_number)
);

CREATE TABLE referral (
    referral_code TEXT NOT NULL,
    discount_percent TEXT NOT NULL,
    visit TEXT,
    PRIMARY KEY (referral_code),
    -- c-a058de76b882
    UNIQUE (visit),
    FOREIGN KEY (visit) REFERENCES visit (visit_number)
);

CREATE TABLE room (
    room_number TEXT NOT NULL,
    PRIMARY KEY (room_number)
);

CREATE TABLE visit (
    visit_number TEXT NOT NULL,
    clinician TEXT NOT NULL,
    end_time TEXT NOT NULL,
    home_address TEXT NOT NULL,
    patient TEXT NOT NULL,
    room TEXT,
    start_time TEXT NOT NULL,
    status TEXT,
    PRIMARY KEY (visit_number),
    -- c-7b69d99bd717
    UNIQUE (start_time, room),
    FOREIGN KEY (clinician) REFERENCES clinician (staff_code),
    FOREIGN KEY (patient) REFERENCES patient (patient_number),
    FOREIGN KEY (room) REFERENCES room (room_number)
);

-- Constraints arest enforces that these tables do not state:
--   c-109d8676c5a9 (SS, a condition on some values or a join: no one table holds it): If some Patient books some Visit then that Visit has Home Address equal to that Patient's Home Address.
--   c-5ce8885a4932 (FC, a frequency: SQL states no count of rows): Each Patient has at most 2 Emergency Contacts.
--   c-ad74869acaf5 (UC, spans a derived fact type): Each Visit has exactly one Amount.
--   c-ad74869acaf5-2 (MC, spans a derived fact type): Each Visit has exactly one Amount.
--   c-d2761c0b70cc (XO, an exclusive-or across tables or rows): {Doctor, Nurse} are mutually exclusive and exhaustive subtypes of Clinician.
--   c-ed7bda0c2a5f (MC, a disjunctive mandatory constraint: SQL states one column at a time): Each Patient has some Phone or has some Email.
-- Deontic constraints: arest reports their violations and accepts the change, so no table refuses them:
--   c-3438df468c59 (VC): It is forbidden that a Referral has Discount Percent greater than 100.
--   c-6559406136a9 (VC): It is forbidden that a Referral has Discount Percent less than 0.
--   c-be5a5c279bd5 (VC): It is obligatory that each Charge has Quantity greater than 0.
--   c-e3b9131f4bf7 (MC): It is obligatory that each Visit has at least one Charge.
-- Derived fact types that no view computes: arest derives their facts; no table stores them:
--   Visit_has_Amount (*, a sum: arest adds numerals and writes its own, the columns hold text)
--     * Visit has Amount iff Amount is the sum of Charge Amount where some Charge belongs to that Visit.
--   Visit_has_Duration (*, a computation: arest computes with numerals and writes its own, the columns hold text)
--     * Visit has Duration iff Visit has End Time and Visit has Start Time and Duration is that End Time minus that Start Time.
--   Visit_has_discounted_Amount (*, a computation: arest computes with numerals and writes its own, the columns hold text)
--     * Visit has discounted Amount iff some Referral is applied to that Visit and that Referral has Discount Percent and discounted Amount is that Visit's Amount reduced by that Discount Percent.
