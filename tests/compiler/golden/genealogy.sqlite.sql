-- The relational schema of these readings (Halpin's Rmap), SQLite dialect,
-- written by arest (docs/sql.md says how each fact type maps to a table and column).
-- SQLite checks the foreign keys when the connection runs PRAGMA foreign_keys = ON.

CREATE TABLE deceased_person (
    name TEXT NOT NULL,
    burial_place TEXT,
    death_year TEXT NOT NULL,
    PRIMARY KEY (name),
    FOREIGN KEY (name) REFERENCES person (name)
);

CREATE TABLE living_person (
    name TEXT NOT NULL,
    PRIMARY KEY (name),
    FOREIGN KEY (name) REFERENCES person (name)
);

CREATE TABLE person (
    name TEXT NOT NULL,
    birth_year TEXT,
    gender TEXT,
    PRIMARY KEY (name),
    -- c-320dc24c22bb: The possible values of Gender are 'female', 'male', 'other'.
    CHECK (gender IN ('female', 'male', 'other'))
);

CREATE TABLE person_is_ancestor_of_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_is_elder_of_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_is_kin_of_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_is_married_to_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    -- c-fedb2fa9db5e-2: Person is married to Person is symmetric and irreflexive.
    CHECK (person1 <> person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_is_parent_of_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    -- c-5ce41cd432bc: No Person is parent of itself.
    CHECK (person1 <> person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_is_sibling_of_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_lived_at_place_in_year (
    person TEXT NOT NULL,
    place TEXT NOT NULL,
    year TEXT NOT NULL,
    PRIMARY KEY (person, year),
    FOREIGN KEY (person) REFERENCES person (name),
    FOREIGN KEY (place) REFERENCES place (place_name)
);

CREATE TABLE person_succeeds_person (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    PRIMARY KEY (person1, person2),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name)
);

CREATE TABLE person_witnessed_person_marry_at_place_in_year (
    person1 TEXT NOT NULL,
    person2 TEXT NOT NULL,
    place TEXT NOT NULL,
    year TEXT NOT NULL,
    PRIMARY KEY (person1, person2, place, year),
    FOREIGN KEY (person1) REFERENCES person (name),
    FOREIGN KEY (person2) REFERENCES person (name),
    FOREIGN KEY (place) REFERENCES place (place_name)
);

CREATE TABLE place (
    place_name TEXT NOT NULL,
    PRIMARY KEY (place_name)
);

-- Derived fact types as views: each computes the facts arest derives (docs/sql.md, Views).
-- Person_is_grandparent_of_Person (*)
--   * Person1 is grandparent of Person3 if Person1 is parent of Person2 and Person2 is parent of Person3.
CREATE VIEW person_is_grandparent_of_person AS
SELECT DISTINCT f1.person1 AS person1, f2.person2 AS person2
FROM person_is_parent_of_person AS f1, person_is_parent_of_person AS f2
WHERE f2.person1 = f1.person2;

-- Constraints arest enforces that these tables do not state:
--   c-1a957d9ea37b (AC, a ring over paths of rows): Person is parent of Person is acyclic.
--   c-3093ead70129 (IT, a ring over several rows): Person succeeds Person is intransitive.
--   c-32eccf3be16c (SY, a ring over several rows): If Person1 is sibling of Person2 then Person2 is sibling of Person1.
--   c-33e3ed622ed4 (EQ, an equality across tables or rows): Some Deceased Person has some Death Year if and only if that Deceased Person has some Burial Place.
--   c-50eebb1dce73 (XC, an exclusion across tables or rows): {Living Person, Deceased Person} are mutually exclusive subtypes of Person.
--   c-65df037e0c88 (AS, a ring over several rows): If Person1 is parent of Person2 then it is impossible that Person2 is parent of Person1.
--   c-af7c766a0861 (TR, a ring over several rows (arest derives the closure)): Person is ancestor of Person is transitive.
--   c-c83f9776b762 (AT, a ring over several rows): Person is elder of Person is antisymmetric.
--   c-d87e86dc9d23 (FC, a frequency: SQL states no count of rows): Each Person is parent of at most 20 Persons.
--   c-f2b396d95423 (RF, a ring over several rows): Person is kin of Person is reflexive.
--   c-fedb2fa9db5e (SY, a ring over several rows): Person is married to Person is symmetric and irreflexive.
-- Deontic constraints: arest reports their violations and accepts the change, so no table refuses them:
--   c-7511ce849b5e (VC): It is forbidden that a Person has Birth Year greater than 2100.
--   c-aae588f3dd65 (UC): It is obligatory that each Person has at most one Gender.
-- Tables that hold the asserted facts only: arest derives more facts of these fact types:
--   Person_is_ancestor_of_Person (closure)
--     Person is ancestor of Person is transitive.
