-- The relational schema of these readings (Halpin's Rmap), SQLite dialect,
-- written by arest (docs/sql.md says how each fact type maps to a table and column).
-- SQLite checks the foreign keys when the connection runs PRAGMA foreign_keys = ON.

CREATE TABLE build (
    build_number TEXT NOT NULL,
    branch TEXT NOT NULL,
    project TEXT NOT NULL,
    status TEXT,
    PRIMARY KEY (build_number),
    FOREIGN KEY (project) REFERENCES project (project_key)
);

CREATE TABLE comment (
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    issue TEXT NOT NULL,
    person TEXT NOT NULL,
    replies_to_comment TEXT,
    PRIMARY KEY (id),
    -- c-85140496b1e4: No Comment replies to itself.
    CHECK (id <> replies_to_comment),
    FOREIGN KEY (issue) REFERENCES issue (issue_key),
    FOREIGN KEY (person) REFERENCES person (username),
    FOREIGN KEY (replies_to_comment) REFERENCES comment (id)
);

CREATE TABLE issue (
    issue_key TEXT NOT NULL,
    duplicates_issue TEXT,
    is_closed BOOLEAN NOT NULL DEFAULT FALSE,
    is_wont_fix BOOLEAN NOT NULL DEFAULT FALSE,
    milestone TEXT,
    person TEXT,
    points TEXT,
    priority TEXT NOT NULL,
    project TEXT NOT NULL,
    resolution TEXT,
    status TEXT,
    title TEXT NOT NULL,
    PRIMARY KEY (issue_key),
    -- c-040a6cbd5f0d: The possible values of Priority are 'urgent', 'high', 'normal', 'low'.
    CHECK (priority IN ('high', 'low', 'normal', 'urgent')),
    -- c-f94591b5d0a6: The possible values of Points are 1, 2, 3, 5, 8, 13.
    CHECK (points IN ('1', '2', '3', '5', '8', '13')),
    FOREIGN KEY (duplicates_issue) REFERENCES issue (issue_key),
    FOREIGN KEY (milestone) REFERENCES milestone (milestone_name),
    FOREIGN KEY (person) REFERENCES person (username),
    FOREIGN KEY (project) REFERENCES project (project_key)
);

CREATE TABLE issue_blocks_issue (
    issue1 TEXT NOT NULL,
    issue2 TEXT NOT NULL,
    PRIMARY KEY (issue1, issue2),
    -- c-11185583b7bb: No Issue blocks the same Issue. (irreflexive)
    CHECK (issue1 <> issue2),
    FOREIGN KEY (issue1) REFERENCES issue (issue_key),
    FOREIGN KEY (issue2) REFERENCES issue (issue_key)
);

CREATE TABLE issue_has_label (
    issue TEXT NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (issue, label),
    FOREIGN KEY (issue) REFERENCES issue (issue_key)
);

CREATE TABLE milestone (
    milestone_name TEXT NOT NULL,
    project TEXT NOT NULL,
    PRIMARY KEY (milestone_name),
    FOREIGN KEY (project) REFERENCES project (project_key)
);

CREATE TABLE person (
    username TEXT NOT NULL,
    display_name TEXT NOT NULL,
    is_on_leave BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (username)
);

CREATE TABLE project (
    project_key TEXT NOT NULL,
    person TEXT,
    title TEXT NOT NULL,
    PRIMARY KEY (project_key),
    FOREIGN KEY (person) REFERENCES person (username)
);

-- Derived fact types as views: each computes the facts arest derives (docs/sql.md, Views).
-- Issue_is_big (*)
--   * Issue is big iff Issue has Points and that Points is greater than 5.
CREATE VIEW issue_is_big AS
SELECT DISTINCT f1.issue_key AS issue
FROM issue AS f1
WHERE (((f1.points GLOB '[0-9]*' OR f1.points GLOB '-[0-9]*') AND substr(f1.points, 2) NOT GLOB '*[^0-9.]*' AND f1.points NOT GLOB '*.' AND f1.points NOT GLOB '*.*.*') AND CAST(f1.points AS NUMERIC) > 5);

-- Issue_is_unassigned (*)
--   * Issue is unassigned iff Issue has Priority and Issue is not assigned to some Person.
CREATE VIEW issue_is_unassigned AS
SELECT DISTINCT f1.issue_key AS issue
FROM issue AS f1
WHERE NOT EXISTS (SELECT 1 FROM issue AS f2 WHERE f2.person IS NOT NULL AND f2.issue_key = f1.issue_key);

-- Milestone_has_done_Issue_Count (*)
--   * Milestone has done Issue Count iff done Issue Count is the count of Issue where Issue targets that Milestone and Issue has Status 'Done'.
CREATE VIEW milestone_has_done_issue_count AS
SELECT f1.milestone AS milestone, CAST(count(DISTINCT f1.issue_key) AS TEXT) AS issue_count
FROM issue AS f1
WHERE f1.milestone IS NOT NULL AND f1.status = 'Done'
GROUP BY f1.milestone;

-- Milestone_has_total_Issue_Count (*)
--   * Milestone has total Issue Count iff total Issue Count is the count of Issue where Issue targets that Milestone.
CREATE VIEW milestone_has_total_issue_count AS
SELECT f1.milestone AS milestone, CAST(count(DISTINCT f1.issue_key) AS TEXT) AS issue_count
FROM issue AS f1
WHERE f1.milestone IS NOT NULL
GROUP BY f1.milestone;

-- Constraints arest enforces that these tables do not state:
--   c-24e1917c6497 (AC, a ring over paths of rows): Issue blocks Issue is acyclic.
--   c-6a257e5044fb (EQ, an equality across tables or rows): Some Issue is closed if and only if that Issue has some Resolution.
--   c-798eb92f1555 (XC, an exclusion across tables or rows): For each Issue, at most one of the following holds: that Issue is wont fix; that Issue duplicates some Issue.
--   c-86d8ecb7560a (SS, a subset across tables or rows): If some Issue is assigned to some Person then that Issue belongs to some Project.
--   c-e8cb11354a74 (IT, a ring over several rows): If Comment 1 replies to Comment 2 and Comment 2 replies to Comment 3, then Comment 1 does not reply to Comment 3.
-- Deontic constraints: arest reports their violations and accepts the change, so no table refuses them:
--   c-70ce20d67682 (VC): It is forbidden that an Issue has Points greater than 8.
--   c-97b3f7f1b72c (UC): It is obligatory that each Issue has exactly one Priority.
--   c-97b3f7f1b72c-2 (MC): It is obligatory that each Issue has exactly one Priority.
-- Derived fact types that no view computes: arest derives their facts; no table stores them:
--   Milestone_has_Completion_Ratio (*, a computation: arest computes with numerals and writes its own, the columns hold text)
--     * Milestone has Completion Ratio iff Milestone has done Issue Count and Milestone has total Issue Count and Completion Ratio is that done Issue Count divided by that total Issue Count.
--   Milestone_has_largest_Points (*, a maximum: arest compares numerals as numbers, the columns hold text)
--     * Milestone has largest Points iff largest Points is the max of Points where some Issue targets that Milestone and that Issue has Points.
--   Milestone_has_mean_Points (*, an average: arest divides numerals and writes its own, the columns hold text)
--     * Milestone has mean Points iff mean Points is the avg of Points where some Issue targets that Milestone and that Issue has Points.
--   Milestone_has_smallest_Points (*, a minimum: arest compares numerals as numbers, the columns hold text)
--     * Milestone has smallest Points iff smallest Points is the min of Points where some Issue targets that Milestone and that Issue has Points.
