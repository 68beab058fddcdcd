-- Samples removed before Remove all samples also turned their alerts off: they show, and are, off.
UPDATE "sites" SET "receives_alerts" = false WHERE "source" = 'sample' AND "is_active" = false;
