-- 012: the image-delivery audit (m3 audit images). Each model call lists the images its request
-- carried or was meant to carry, as the driver received it: origin (task or tool, with the tool
-- call id), source, pixel size, bytes sent, and whether the image was sent, replaced by a
-- placeholder or dropped, with the reason (src/core/image-delivery.ts).
ALTER TABLE model_calls ADD COLUMN images TEXT NOT NULL DEFAULT '[]';
